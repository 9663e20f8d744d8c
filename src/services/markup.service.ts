// POST /markdown, /markdown/raw, /markup (Forgejo: routers/api/v1/misc/markup.go, routers/common/markup.go):
// the context becomes the base of relative links, and the references the text makes are looked up for the reader:
// mentions of accounts the reader may see, and `#123` in a repository the reader may see. Rendering itself runs on
// the render threads; a document they refuse (too slow, too complex) is a 422.
import type { UserRepository } from '../db/user.repository.ts';
import type { User } from '../db/entities.ts';
import { hasAccess } from '../domain/access/repo-permission.ts';
import { PlainTextValidationError, ValidationError } from '../domain/errors.ts';
import { RenderPool, RenderRefusedError } from '../infra/workers/render-pool.ts';
import type { RenderOutcome, RenderRequest } from '../render/markup.ts';
import type { FoundReferences, ResolvedReferences } from '../render/references.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';
import type { RepositoryLookupService } from './repository-lookup.service.ts';

export interface MarkupInput {
  mode: string;
  text: string;
  context?: string;
  filePath?: string;
  wiki?: boolean;
}

/** Mentions looked up per document at most; the rest stay text. */
const MAX_MENTIONS = 100;

/** A path segment unescaped; null when the escape is malformed (it names nothing). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export class MarkupService {
  private readonly users: UserRepository;
  private readonly appUrl: string;
  private readonly threads: RenderPool;

  constructor(
    deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
    private readonly repositories: RepositoryLookupService,
    private readonly repoPermissions: RepoPermissionService,
  ) {
    this.users = deps.repos.users;
    this.appUrl = deps.settings.server.ROOT_URL;
    const { RENDER_TIMEOUT, RENDER_THREADS } = deps.settings.markup;
    this.threads = new RenderPool({ timeoutMs: RENDER_TIMEOUT, threads: RENDER_THREADS });
  }

  async render(reader: User, input: MarkupInput): Promise<string> {
    if (input.text === '') return '';
    const base = this.linkBase(input.context ?? '');
    const { mode, text, filePath } = input;
    const request: RenderRequest = { mode, text, filePath, base, wiki: input.wiki ?? false };
    let outcome = await this.renderOnThread(request, null);
    if ('references' in outcome) {
      const resolved = await this.resolveReferences(reader, base, outcome.references);
      outcome = await this.renderOnThread(request, resolved);
    }
    if ('invalid' in outcome) throw new PlainTextValidationError(outcome.invalid);
    if ('references' in outcome) throw new Error('the renderer asked for references it had been given');
    return outcome.html;
  }

  /** Ends the render threads (shutdown). */
  close(): Promise<void> {
    return this.threads.close();
  }

  private async renderOnThread(request: RenderRequest, resolved: ResolvedReferences | null): Promise<RenderOutcome> {
    try {
      return await this.threads.run({ request, resolved });
    } catch (error) {
      if (error instanceof RenderRefusedError) throw new ValidationError(error.message);
      throw error;
    }
  }

  /** A context that is not an absolute http(s) URL is a path under the root URL (`owner/repo`). */
  private linkBase(context: string): string {
    const absolute = /^https?:\/\//i.test(context.trim());
    const base = absolute ? context.trim() : `${this.appUrl}${context.trim().replace(/^\/+/, '')}`;
    return base.replace(/\/+$/, '');
  }

  private async resolveReferences(reader: User, base: string, found: FoundReferences): Promise<ResolvedReferences> {
    const [accounts, issuesUrl] = await Promise.all([
      this.visibleAccounts(reader, [...found.mentions].slice(0, MAX_MENTIONS)),
      found.issues ? this.issuesUrl(reader, base) : null,
    ]);
    return { accounts, issuesUrl };
  }

  private async visibleAccounts(reader: User, lowerNames: string[]): Promise<Map<string, string>> {
    const accounts = new Map<string, string>();
    if (lowerNames.length === 0) return accounts;
    for (const account of await this.users.listByLowerNames(lowerNames)) {
      if (await this.ownerAccess.canSee(reader, account))
        accounts.set(account.lowerName, `${this.appUrl}${account.name}`);
    }
    return accounts;
  }

  /** Issues of the repository the base names (`<root>/<owner>/<repo>…`), when it exists and the reader may see it. */
  private async issuesUrl(reader: User, base: string): Promise<string | null> {
    if (!`${base}/`.startsWith(this.appUrl)) return null;
    const [ownerName, repoName] = base.slice(this.appUrl.length).split('/').map(decodeSegment);
    if (!ownerName || !repoName) return null;
    const repo = await this.repositories.find(ownerName, repoName);
    if (!repo || !hasAccess(await this.repoPermissions.forRepo(reader, repo))) return null;
    return `${this.appUrl}${repo.owner.name}/${repo.name}/issues`;
  }
}
