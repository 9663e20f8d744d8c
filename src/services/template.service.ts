// The template catalogues: gitignore, licence, label and readme templates, each Anvil's own set overlaid by the
// administrator's files in `$ANVIL_DATA_DIR/custom/options/<kind>/` (Forgejo: routers/api/v1/misc/*, modules/options).
import path from 'node:path';
import type { Settings } from '../config/settings.ts';
import { LabelTemplateError, parseLabelTemplate, type TemplateLabel } from '../domain/label-template.ts';
import type { GitignoreTemplate, LicenseTemplate } from '../domain/template.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { Logger } from '../infra/observability/logger.ts';
import { LabelTemplateFiles } from '../templates/label-template-files.ts';
import { spdxLicenses } from '../templates/spdx-licenses.ts';
import { folderSource, overlay, templateFileName, type TemplateSource } from '../templates/template-files.ts';
import { projectPath } from '../lib/project-root.ts';

const ASSETS_DIR = projectPath('assets');

export class TemplateService {
  private readonly gitignores: TemplateSource;
  private readonly licenses: TemplateSource;
  private readonly readmes: TemplateSource;
  private readonly labels: LabelTemplateFiles;

  constructor(private readonly deps: { readonly settings: Settings; readonly log: Logger }) {
    const custom = (kind: string) =>
      folderSource(path.join(deps.settings.server.APP_DATA_PATH, 'custom', 'options', kind));
    const builtIn = (kind: string) => folderSource(path.join(ASSETS_DIR, kind), { cached: true });
    this.gitignores = overlay(custom('gitignore'), builtIn('gitignore'));
    this.licenses = overlay(custom('license'), spdxLicenses);
    this.readmes = overlay(custom('readme'), builtIn('readme'));
    this.labels = new LabelTemplateFiles([custom('label'), builtIn('label')]);
  }

  // ---- gitignore ----

  gitignoreNames(): readonly string[] {
    return this.gitignores.names();
  }

  findGitignore(requested: string): GitignoreTemplate | null {
    const name = templateFileName(requested);
    const source = name === null ? null : this.gitignores.read(name);
    return source === null ? null : { name: name!, source };
  }

  gitignore(requested: string): GitignoreTemplate {
    const template = this.findGitignore(requested);
    if (!template) throw new NotFoundError();
    return template;
  }

  // ---- licences ----

  /** SPDX ids, `[repository] PREFERRED_LICENSES` first in their configured order (any case), then the rest sorted. */
  licenseNames(): string[] {
    const names = this.licenses.names();
    const preferred = this.deps.settings.repository.PREFERRED_LICENSES.flatMap((wanted) =>
      names.filter((name) => name.toLowerCase() === wanted.toLowerCase()),
    );
    return [...new Set([...preferred, ...names])];
  }

  findLicense(requested: string): LicenseTemplate | null {
    const name = templateFileName(requested);
    const body = name === null ? null : this.licenses.read(name);
    return body === null ? null : { name: name!, body };
  }

  license(requested: string): LicenseTemplate {
    const template = this.findLicense(requested);
    if (!template) throw new NotFoundError();
    return template;
  }

  // ---- labels ----

  labelTemplateNames(): string[] {
    return this.labels.names();
  }

  /** The labels of a template; null when there is none; LabelTemplateError when its file cannot be read as one. */
  findLabelTemplate(requested: string): TemplateLabel[] | null {
    const name = templateFileName(requested);
    const file = name === null ? null : this.labels.read(name);
    return file === null ? null : parseLabelTemplate(file.fileName, file.text);
  }

  /** A broken template file answers 404 as in Forgejo; the log says why. */
  labelTemplate(requested: string): TemplateLabel[] {
    try {
      const labels = this.findLabelTemplate(requested);
      if (labels) return labels;
    } catch (error) {
      if (!(error instanceof LabelTemplateError)) throw error;
      this.deps.log.warn({ err: error }, 'label template cannot be read');
    }
    throw new NotFoundError();
  }

  // ---- readme ----

  readmeNames(): readonly string[] {
    return this.readmes.names();
  }

  findReadme(requested: string): string | null {
    const name = templateFileName(requested);
    return name === null ? null : this.readmes.read(name);
  }
}
