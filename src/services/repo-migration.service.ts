// POST /repos/migrate (Forgejo: routers/api/v1/repo/migrate.go, services/migrations) and mirror updates.
// Only git data is migrated: the remote is cloned with `git clone --mirror` into a staging folder and moved
// into place once the clone succeeded, so a failed migration leaves neither a row nor a directory.
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { MirrorRepository } from '../db/mirror.repository.ts';
import type { User } from '../db/entities.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { parseGoDuration } from '../lib/go-duration.ts';
import { isLocalNetworkAddress } from '../domain/network-address.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { cloneMirror, fetchMirror, remoteUrl, removeOrigin, type RemoteOptions } from '../infra/git/repository.ts';
import { GitError } from '../infra/git/run.ts';
import type { Logger } from '../infra/observability/logger.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { PushService } from './push.service.ts';
import type { OrgService } from './org.service.ts';
import type { QuotaService } from './quota.service.ts';
import type { RepoPermission, RepoWithOwner } from './repo-permission.service.ts';
import type { RepositoryCreationService } from './repository-creation.service.ts';
import type { RepositoryEditService } from './repository-edit.service.ts';

export interface MigrateInput {
  clone_addr: string;
  repo_name: string;
  repo_owner?: string;
  uid?: number;
  auth_username?: string;
  auth_password?: string;
  auth_token?: string;
  description?: string;
  private?: boolean;
  mirror?: boolean;
  mirror_interval?: string;
  service?: string;
}

const REMOTE_PROTOCOLS = ['http', 'https', 'git'];
const DISALLOWED_HOSTS = 'You can not import from disallowed hosts.';

/** Removes user:password@ from URLs in a text (git error output, stored addresses). */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1');
}

interface CloneSource {
  url: string;
  /** The address shown to users and stored: no credentials. */
  publicUrl: string;
  remote: RemoteOptions;
}

export class RepoMigrationService {
  private readonly repos: RepositoryRowsRepository;
  private readonly mirrors: MirrorRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly repoCreation: RepositoryCreationService,
    private readonly repoEdits: RepositoryEditService,
    private readonly pushes: PushService,
    private readonly quota: QuotaService,
    private readonly orgs: OrgService,
  ) {
    this.repos = deps.repos.repositories;
    this.mirrors = deps.repos.mirrors;
  }

  /** Clones the source into a new repository; Forgejo answers a migration with admin permissions on it. */
  async migrate(doer: User, input: MigrateInput): Promise<{ repo: RepoWithOwner; permission: RepoPermission }> {
    const { settings } = this.deps;
    const owner = await this.targetOwner(doer, input);
    await this.quota.assertWithin(owner, 'size:repos:all');
    if (settings.repository.DISABLE_MIGRATIONS)
      throw new ForbiddenError('the site administrator has disabled migrations');
    if (input.mirror && (settings.mirror.DISABLE_NEW_PULL || !settings.mirror.ENABLED)) {
      throw new ForbiddenError('the site administrator has disabled the creation of new pull mirrors');
    }
    const source = await this.cloneSource(doer, input);
    const intervalSecs = input.mirror ? this.mirrorInterval(input.mirror_interval) : 0;
    await this.repoCreation.checkCreation(doer, owner, input.repo_name);

    try {
      const repo = await this.repoCreation.insert(
        doer,
        owner,
        {
          name: input.repo_name,
          description: input.description,
          originalUrl: source.publicUrl,
          isPrivate: (input.private ?? false) || settings.repository.FORCE_PRIVATE,
          isMirror: input.mirror ?? false,
          defaultBranch: settings.repository.DEFAULT_BRANCH,
          mirror: input.mirror ? { intervalSecs, remoteAddress: source.publicUrl } : undefined,
        },
        {
          build: async (dir) => {
            await cloneMirror(source.url, dir, source.remote);
            if (!input.mirror) await removeOrigin(dir);
          },
        },
      );
      return {
        repo,
        permission: { mode: AccessMode.admin, unitModes: null, units: repo.units.map((unit) => unit.type) },
      };
    } catch (error) {
      if (error instanceof GitError) throw migrationError(error, this.deps.log, source.publicUrl);
      throw error;
    }
  }

  /** Owner from repo_owner or uid, else the caller; non-admins may only target themselves or orgs they own. */
  private async targetOwner(doer: User, input: MigrateInput): Promise<User> {
    const { users } = this.deps.repos;
    let owner: User | null = doer;
    if (input.repo_owner) owner = await users.byLowerName(input.repo_owner.toLowerCase());
    else if (input.uid) owner = await users.byId(input.uid);
    if (!owner)
      throw new ValidationError(`user does not exist [name: ${input.repo_owner ?? ''}, uid: ${input.uid ?? 0}]`);
    // The owner comes from the body, found here only, so not a guard's.
    if (!doer.isAdmin) {
      if (!isOrganization(owner) && owner.id !== doer.id)
        throw new ForbiddenError('Given user is not an organization.');
      if (isOrganization(owner)) {
        if (!(await this.orgs.roleOf(owner.id, doer.id)).owner)
          throw new ForbiddenError('Given user is not owner of organization.');
      }
    }
    return owner;
  }

  private mirrorInterval(text: string | undefined): number {
    const { mirror } = this.deps.settings;
    const interval = parseGoDuration(text || mirror.DEFAULT_INTERVAL);
    const minimum = parseGoDuration(mirror.MIN_INTERVAL) ?? 600;
    if (interval === null || (interval !== 0 && interval < minimum))
      throw new ValidationError(`invalid mirror interval: ${text}`);
    return interval;
  }

  /** Checks the clone address (Forgejo: forms.ParseRemoteAddr, migrations.IsMigrateURLAllowed). */
  private async cloneSource(doer: User, input: MigrateInput): Promise<CloneSource> {
    const address = input.clone_addr.trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(address)?.[1]?.toLowerCase();
    if (!scheme || scheme === 'file') return this.localSource(doer, scheme ? address.slice('file://'.length) : address);
    if (!REMOTE_PROTOCOLS.includes(scheme)) throw new ValidationError('Invalid url: the protocol is not allowed.');
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new ValidationError('Invalid url.');
    }
    if (!url.hostname) throw new ValidationError('Invalid url.');
    const username = input.auth_username ?? '';
    const password = input.auth_token ? input.auth_token : (input.auth_password ?? '');
    if (username || password) {
      url.username = encodeURIComponent(username || (input.auth_token ? 'oauth2' : ''));
      url.password = encodeURIComponent(password);
    }
    const remote = await this.checkedRemote(url, url.toString());
    const publicUrl = new URL(url);
    publicUrl.username = '';
    publicUrl.password = '';
    return { url: url.toString(), publicUrl: publicUrl.toString(), remote };
  }

  /**
   * Resolves the host and refuses local-network addresses unless allowed. git would resolve the host again (a
   * rebinding DNS server can answer differently the second time), so the checked addresses are pinned: for http(s)
   * through curl (http.curloptResolve), for git:// by rewriting the URL's authority to the checked address (the
   * daemon then sees the address in its host= line, which only virtual-hosting daemons read). `raw` is the URL
   * exactly as git gets it.
   */
  private async checkedRemote(url: URL, raw: string): Promise<RemoteOptions> {
    const scheme = url.protocol.replace(/:$/, '');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = net.isIP(host)
        ? [host]
        : (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      throw new ValidationError(`Invalid url: the host ${host} could not be resolved.`);
    }
    if (addresses.length === 0) throw new ValidationError(`Invalid url: the host ${host} could not be resolved.`);
    if (!this.deps.settings.migrations.ALLOW_LOCALNETWORKS && addresses.some(isLocalNetworkAddress))
      throw new ValidationError(DISALLOWED_HOSTS);
    const remote: RemoteOptions = { allowProtocols: [scheme] };
    if (net.isIP(host)) return remote;
    const literal = (address: string) => (net.isIPv6(address) ? `[${address}]` : address);
    if (scheme === 'git') {
      const authority = /^git:\/\/[^/?#]*/i.exec(raw)?.[0];
      if (!authority) throw new ValidationError('Invalid url.');
      return { ...remote, rewrites: [[authority, `git://${literal(addresses[0])}:${url.port || '9418'}`]] };
    }
    const port = url.port || (scheme === 'https' ? '443' : '80');
    return { ...remote, pinnedAddresses: [`${host}:${port}:${addresses.map(literal).join(',')}`] };
  }

  private localSource(doer: User, localPath: string): CloneSource {
    const allowed = this.deps.settings.security.IMPORT_LOCAL_PATHS && (doer.isAdmin || doer.allowImportLocal);
    if (!allowed) throw new ValidationError('You are not allowed to import local repositories.');
    const resolved = path.resolve(localPath);
    if (!path.isAbsolute(localPath) || !fs.existsSync(resolved) || !fs.statSync(resolved).isDirectory()) {
      throw new ValidationError('Invalid local path, it does not exist or not a directory.');
    }
    return { url: resolved, publicUrl: resolved, remote: { allowProtocols: ['file'] } };
  }

  /**
   * Fetches a pull mirror from its origin (the update_mirrors task calls this), refreshes what the database knows,
   * records mirror_sync_* feed actions for the refs that changed and schedules the next update, also after a
   * failed fetch, so a broken origin is retried on the mirror's interval rather than on every run.
   */
  async updateMirror(repoId: number): Promise<void> {
    const repo = await this.repos.findWithMirror(repoId);
    if (!repo || !repo.isMirror || !repo.mirror) throw new NotFoundError('mirror not found');
    const intervalMs = repo.mirror.intervalSecs * 1000;
    let synced = false;
    try {
      const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
      const url = await remoteUrl(dir);
      const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
      const remote: RemoteOptions =
        scheme && scheme !== 'file' ? await this.checkedRemote(new URL(url), url) : { allowProtocols: ['file'] };
      const sync = await this.pushes.beginMirrorSync(repo, dir);
      await fetchMirror(dir, remote);
      await this.repoEdits.refreshFromDisk(repo.id);
      await sync.finish();
      synced = true;
    } finally {
      const now = new Date();
      const nextUpdateAt = new Date(now.getTime() + intervalMs);
      await this.mirrors.schedule(repoId, nextUpdateAt, synced ? now : undefined);
    }
  }
}

/**
 * git's own words stay in the log: they name addresses, ports and timings ("Failed to connect to … port … after
 * … ms"), which would turn migrations into a port scanner. Forgejo's message prefixes are kept.
 */
function migrationError(error: GitError, log: Logger, source: string): ValidationError {
  const detail = withoutCredentials(error.stderr.trim() || error.message);
  log.warn({ source, detail }, 'migration: cloning the source failed');
  if (/Authentication failed|could not read Username|Bad credentials|returned error: 401\b/.test(detail)) {
    return new ValidationError('Authentication failed: the source refused the credentials.');
  }
  return new ValidationError('Migration failed: the source repository could not be cloned.');
}
