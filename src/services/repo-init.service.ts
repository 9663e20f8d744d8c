// What a new repository starts with when its creator asks for templates: the first commit's README.md,
// .gitignore and LICENSE (with auto_init), and labels from a label template (Forgejo: services/repository/create.go).
import type { User } from '../db/entities.ts';
import { LabelTemplateError, type TemplateLabel } from '../domain/label-template.ts';
import { fillLicense } from '../domain/license-placeholders.ts';
import { BadRequestError, ValidationError } from '../domain/errors.ts';
import type { InitialFile } from '../infra/git/repository.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { TemplateService } from './template.service.ts';

export interface RepoInitChoice {
  name: string;
  description?: string;
  autoInit?: boolean;
  readme?: string;
  gitignores?: string;
  license?: string;
  issueLabels?: string;
}

export interface RepoInitContent {
  files: InitialFile[];
  labels: TemplateLabel[];
}

export class RepoInitService {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'settings' | 'repos'>,
    private readonly templates: TemplateService,
  ) {}

  /**
   * Reads every chosen template before anything is created: an unknown readme answers 400 (as Forgejo), an
   * unknown gitignore, licence or label template 422 (Forgejo fails with 500 after creating the row).
   */
  prepare(owner: User, choice: RepoInitChoice): RepoInitContent {
    const files: InitialFile[] = [];
    if (choice.autoInit) {
      files.push({ name: 'README.md', content: this.readme(owner, choice) });
      const gitignore = this.gitignore(choice.gitignores ?? '');
      if (gitignore) files.push({ name: '.gitignore', content: gitignore });
      if (choice.license) files.push({ name: 'LICENSE', content: this.license(owner, choice.name, choice.license) });
    }
    return { files, labels: choice.issueLabels ? this.labels(choice.issueLabels) : [] };
  }

  async createLabels(repoId: number, labels: readonly TemplateLabel[]): Promise<void> {
    await this.deps.repos.labels.createManyForRepo(repoId, labels);
  }

  private readme(owner: User, choice: RepoInitChoice): string {
    const name = choice.readme || 'Default';
    const template = this.templates.findReadme(name);
    if (template === null) {
      throw new BadRequestError(
        `readme template does not exist, available templates: [${this.templates.readmeNames().join(' ')}]`,
      );
    }
    const values: Record<string, string> = {
      Name: choice.name,
      Description: choice.description ?? '',
      OwnerName: owner.name,
      'CloneURL.HTTPS': `${this.deps.settings.server.ROOT_URL}${owner.name}/${choice.name}.git`,
      'CloneURL.SSH': '',
    };
    const text = template.replace(/\{([\w.]+)\}/g, (whole, key: string) => values[key] ?? whole);
    return text.trimEnd() + '\n';
  }

  /** The chosen templates one after the other, each under a `# ---> Name` line, as Forgejo joins them. */
  private gitignore(list: string): string {
    const names = list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    return names
      .map((name) => {
        const template = this.templates.findGitignore(name);
        if (!template) throw new ValidationError(`gitignore template does not exist [name: ${name}]`);
        return `# ---> ${name}\n${template.source}\n`;
      })
      .join('');
  }

  private license(owner: User, repoName: string, requested: string): string {
    const template = this.templates.findLicense(requested);
    if (!template) throw new ValidationError(`license template does not exist [name: ${requested}]`);
    const email =
      owner.email && !owner.keepEmailPrivate
        ? owner.email
        : `${owner.lowerName}@${this.deps.settings.service.NO_REPLY_ADDRESS}`;
    return fillLicense(template.name, template.body, {
      owner: owner.name,
      email,
      repo: repoName,
      year: String(new Date().getFullYear()),
    });
  }

  private labels(requested: string): TemplateLabel[] {
    try {
      const labels = this.templates.findLabelTemplate(requested);
      if (labels) return labels;
    } catch (error) {
      if (!(error instanceof LabelTemplateError)) throw error;
      throw new ValidationError(`label template cannot be read [name: ${requested}]: ${error.message}`);
    }
    throw new ValidationError(`label template does not exist [name: ${requested}]`);
  }
}
