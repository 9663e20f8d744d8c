// Deploy keys of a repository (Forgejo: routers/api/v1/repo/key.go, models/asymkey/ssh_key_deploy.go): one key
// may be granted to several repositories, read-only or read-write; a key registered as a user's key cannot be one.
// Anvil serves git over HTTP only, so a deploy key is kept and shown as Forgejo does but opens no SSH access.
import type { DeployKeyFilter, DeployKeyRow } from '../db/deploy-key.repository.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { ForbiddenError, NameTakenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { PublicKeyService } from './public-key.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export type { DeployKeyRow };

/** Forgejo's key kind for deploy keys. */
const DEPLOY_KEY = 'deploy';

export class DeployKeyService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly publicKeys: PublicKeyService,
  ) {}

  list(repo: RepoWithOwner, filter: DeployKeyFilter, page: ListOptions) {
    return this.deps.repos.deployKeys.list(repo.id, filter, page.skip, page.limit);
  }

  async get(repo: RepoWithOwner, id: number): Promise<DeployKeyRow> {
    const grant = await this.deps.repos.deployKeys.findById(id);
    // A key of another repository is as missing as an unknown one (Forgejo: GetDeployKey).
    if (!grant || grant.repoId !== repo.id) throw new NotFoundError(`deploy key does not exist [id: ${id}]`);
    return grant;
  }

  async create(repo: RepoWithOwner, title: string, keyText: string, readOnly: boolean): Promise<DeployKeyRow> {
    const parsed = this.publicKeys.checkKeyText(keyText);
    const name = title.trim();
    if (name === '') throw new ValidationError('[Title]: Required');
    const mode = readOnly ? AccessMode.read : AccessMode.write;
    try {
      return await this.deps.transactions.run(async (repos) => {
        const key =
          (await repos.deployKeys.findKeyByFingerprint(parsed.fingerprint)) ??
          (await repos.deployKeys.createKey({
            name,
            fingerprint: parsed.fingerprint,
            content: parsed.content,
            keyType: DEPLOY_KEY,
          }));
        if (key.keyType !== DEPLOY_KEY) throw new ValidationError('Key content has been used as non-deploy key');
        if (await repos.deployKeys.grantExists(repo.id, { keyId: key.id }))
          throw new ValidationError('This key has already been added to this repository');
        if (await repos.deployKeys.grantExists(repo.id, { name }))
          throw new ValidationError('A key with the same name already exists');
        return repos.deployKeys.create({ keyId: key.id, repoId: repo.id, name, fingerprint: key.fingerprint, mode });
      });
    } catch (error) {
      // Two requests adding one key or one name at once: the unique indexes keep one.
      if (error instanceof NameTakenError)
        throw new ValidationError('This key has already been added to this repository');
      throw error;
    }
  }

  /** Forgejo deletes quietly what does not exist, and refuses a key of another repository. */
  async delete(repo: RepoWithOwner, id: number): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      const grant = await repos.deployKeys.findById(id);
      if (!grant) return;
      if (grant.repoId !== repo.id) throw new ForbiddenError('You do not have access to this key');
      await repos.deployKeys.delete(grant);
    });
  }
}
