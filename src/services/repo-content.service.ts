// Reading a repository's tree at a ref (Forgejo: routers/api/v1/repo/file.go, services/repository/files/content.go):
// one entry with its content, a directory's entries, raw bytes. The last commit of each entry is looked up per entry.
import type { RepoWithOwner } from '../db/repository-details.ts';
import { type ContentEntry, type ContentRef, contentType } from '../domain/repo-content.ts';
import { NotFoundError } from '../domain/errors.ts';
import { statisticsLanguage } from '../lib/file-language.ts';
import type { Readable } from 'node:stream';
import type * as EditorConfig from 'editorconfig';
import { type ArchiveFormat, streamArchive } from '../infra/git/archive.ts';
import { resolveRevision, type Revision } from '../infra/git/revision.ts';
import {
  entriesAt,
  entryAt,
  lastCommitOf,
  lastCommitsOf,
  listTree,
  listTrees,
  readBlob,
  type TreeEntry,
} from '../infra/git/tree.ts';
import {
  DEFAULT_ISSUE_CONFIG,
  ISSUE_CONFIG_PATHS,
  type IssueConfig,
  IssueConfigError,
  parseIssueConfig,
} from '../domain/issue-config.ts';
import {
  ISSUE_TEMPLATE_DIRS,
  type IssueTemplate,
  isTemplateFile,
  parseIssueTemplate,
} from '../domain/issue-template.ts';
import type { ServiceDeps } from './service-deps.ts';

export type Contents = { kind: 'entry'; entry: ContentEntry } | { kind: 'list'; entries: ContentEntry[] };

export class RepoContentService {
  constructor(private readonly deps: ServiceDeps) {}

  dir(repo: RepoWithOwner): string {
    return this.deps.stores.repositories.directory(repo.ownerName, repo.name);
  }

  /** The commit `ref` names (the default branch when absent); 404 when it names none or the repository is empty. */
  async revision(repo: RepoWithOwner, ref?: string): Promise<Revision> {
    const name = ref || repo.defaultBranch;
    const revision = await resolveRevision(this.dir(repo), name);
    if (!revision) throw new NotFoundError(`object does not exist [id: ${name}, rel_path: ]`);
    return revision;
  }

  async contents(repo: RepoWithOwner, path: string, ref?: string): Promise<{ ref: ContentRef; contents: Contents }> {
    const dir = this.dir(repo);
    const revision = await this.revision(repo, ref);
    const clean = path.replace(/^\/+|\/+$/g, '');
    const entry = await entryAt(dir, revision.sha, clean);
    if (!entry) throw new NotFoundError(`object does not exist [id: , rel_path: ${clean}]`);
    if (entry.type === 'tree') {
      const entries = await listTree(dir, revision.sha, clean);
      const lastCommits = await lastCommitsOf(
        dir,
        revision.sha,
        clean,
        entries.map((child) => child.path),
      );
      return {
        ref: revision,
        contents: {
          kind: 'list',
          entries: await Promise.all(
            entries.map((child) => this.describe(dir, revision.sha, child, false, lastCommits.get(child.path))),
          ),
        },
      };
    }
    return { ref: revision, contents: { kind: 'entry', entry: await this.describe(dir, revision.sha, entry, true) } };
  }

  /**
   * The issue config of the default branch, and why it is invalid (null when valid). An absent file (or an empty
   * repository) is the default config; an invalid one reads as the default, as in Forgejo.
   */
  async issueConfig(repo: RepoWithOwner): Promise<{ config: IssueConfig; error: string | null }> {
    if (repo.isEmpty) return { config: DEFAULT_ISSUE_CONFIG, error: null };
    const dir = this.dir(repo);
    const revision = await this.revision(repo);
    const candidates = await entriesAt(dir, revision.sha, ISSUE_CONFIG_PATHS);
    for (const path of ISSUE_CONFIG_PATHS) {
      const entry = candidates?.get(path);
      const bytes = entry && entry.type === 'blob' ? await readBlob(dir, entry.sha) : null;
      if (!bytes) continue;
      try {
        return { config: parseIssueConfig(bytes.toString('utf8')), error: null };
      } catch (error) {
        if (!(error instanceof IssueConfigError)) throw error;
        return { config: DEFAULT_ISSUE_CONFIG, error: error.message };
      }
    }
    return { config: DEFAULT_ISSUE_CONFIG, error: null };
  }

  /** The valid issue templates of the default branch, folder by folder in Forgejo's order. */
  async issueTemplates(repo: RepoWithOwner): Promise<IssueTemplate[]> {
    if (repo.isEmpty) return [];
    const dir = this.dir(repo);
    const revision = await this.revision(repo);
    const templates: IssueTemplate[] = [];
    const folders = await listTrees(dir, revision.sha, ISSUE_TEMPLATE_DIRS);
    for (const folder of ISSUE_TEMPLATE_DIRS) {
      for (const entry of folders?.get(folder) ?? []) {
        const name = entry.path.slice(folder.length + 1);
        if (entry.type !== 'blob' || !isTemplateFile(name)) continue;
        const bytes = await readBlob(dir, entry.sha);
        const template = bytes && parseIssueTemplate(name, bytes.toString('utf8'));
        if (template) templates.push(template);
      }
    }
    return templates;
  }

  /** A file's bytes at a ref, for the raw and media routes. */
  async raw(repo: RepoWithOwner, path: string, ref?: string): Promise<{ name: string; bytes: Buffer; sha: string }> {
    const dir = this.dir(repo);
    const revision = await this.revision(repo, ref);
    const entry = await entryAt(dir, revision.sha, path.replace(/^\/+|\/+$/g, ''));
    const bytes = entry && entry.type === 'blob' ? await readBlob(dir, entry.sha) : null;
    if (!entry || !bytes) throw new NotFoundError(`object does not exist [id: , rel_path: ${path}]`);
    return { name: entry.path.split('/').pop() ?? entry.path, bytes, sha: entry.sha };
  }

  /**
   * The raw route's legacy form (`/raw/{ref}/{path}` with no `ref` query): the longest leading segments that name a
   * branch, tag or commit are the ref.
   */
  async rawWithRefInPath(repo: RepoWithOwner, pathWithRef: string) {
    const segments = pathWithRef.split('/');
    for (let split = segments.length - 1; split > 0; split--) {
      const ref = segments.slice(0, split).join('/');
      if (await resolveRevision(this.dir(repo), ref)) return this.raw(repo, segments.slice(split).join('/'), ref);
    }
    return this.raw(repo, pathWithRef);
  }

  /** `{ref}.zip`, `{ref}.tar.gz` or `{ref}.bundle` of the repository, streamed by git. */
  async archive(repo: RepoWithOwner, archive: string): Promise<{ fileName: string; type: string; stream: Readable }> {
    const match = /^(.+)\.(zip|tar\.gz|bundle)$/.exec(archive);
    if (!match) throw new NotFoundError(`unknown archive format [name: ${archive}]`);
    const format = match[2] as ArchiveFormat;
    const revision = await this.revision(repo, match[1]);
    const fullRef = { branch: `refs/heads/${revision.name}`, tag: `refs/tags/${revision.name}`, commit: revision.sha };
    const object = format === 'bundle' ? fullRef[revision.kind] : revision.sha;
    const safeName = revision.name.replace(/\//g, '-');
    const type = { zip: 'application/zip', 'tar.gz': 'application/gzip', bundle: 'application/octet-stream' }[format];
    return {
      fileName: `${repo.name}-${safeName}.${format}`,
      type,
      stream: streamArchive(this.dir(repo), object, format, repo.name),
    };
  }

  /**
   * The EditorConfig properties that apply to `path`, from the root `.editorconfig` at the ref (Forgejo reads that one
   * only); 404 when there is none.
   */
  async editorConfig(repo: RepoWithOwner, path: string, ref?: string): Promise<Record<string, unknown>> {
    const dir = this.dir(repo);
    const revision = await this.revision(repo, ref);
    const entry = await entryAt(dir, revision.sha, '.editorconfig');
    const contents = entry?.type === 'blob' ? await readBlob(dir, entry.sha) : null;
    if (!contents) throw new NotFoundError('.editorconfig does not exist');
    const file = `/${path.replace(/^\/+/, '')}`;
    // Loaded here: few requests ask for EditorConfig, and the parser is a large share of a start.
    const { parseFromFilesSync } = require('editorconfig') as typeof EditorConfig;
    return parseFromFilesSync(file, [{ name: '/.editorconfig', contents }], { root: '/' });
  }

  /** Bytes per language at the default branch (Forgejo: GET /languages), languages by name; empty when empty. */
  async languages(repo: RepoWithOwner): Promise<Record<string, number>> {
    if (repo.isEmpty) return {};
    const revision = await this.revision(repo);
    const totals = new Map<string, number>();
    for (const entry of await listTree(this.dir(repo), revision.sha, '', { recursive: true })) {
      const language = entry.type === 'blob' && entry.mode !== '120000' ? statisticsLanguage(entry.path) : null;
      if (language) totals.set(language, (totals.get(language) ?? 0) + entry.size);
    }
    return Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** One entry at a commit, with its content (what a file write answers with); null when the path is absent. */
  async entryAtCommit(repo: RepoWithOwner, commit: string, path: string): Promise<ContentEntry | null> {
    const dir = this.dir(repo);
    const entry = await entryAt(dir, commit, path);
    return entry ? this.describe(dir, commit, entry, true) : null;
  }

  private async describe(
    dir: string,
    commit: string,
    entry: TreeEntry,
    withContent: boolean,
    lastCommit?: string,
  ): Promise<ContentEntry> {
    const type = contentType(entry.mode);
    const described: ContentEntry = {
      type,
      name: entry.path.split('/').pop() ?? entry.path,
      path: entry.path,
      sha: entry.sha,
      size: entry.size,
      lastCommitSha: lastCommit ?? (await lastCommitOf(dir, commit, entry.path)) ?? commit,
    };
    if (type === 'symlink') described.target = (await readBlob(dir, entry.sha))?.toString('utf8') ?? '';
    if (type === 'file' && withContent) described.content = (await readBlob(dir, entry.sha))?.toString('base64') ?? '';
    return described;
  }
}
