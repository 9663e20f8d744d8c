// SSH public keys of users (Forgejo: models/asymkey, services/asymkey). A key may be registered only once
// across the whole site; titles are unique per user.
import type { User } from '../db/entities.ts';
import type { PublicKey, PublicKeyRepository } from '../db/public-key.repository.ts';
import { type ParsedSshKey, parseSshPublicKey, SshKeyError } from '../domain/ssh-key.ts';
import { ForbiddenError, NameTakenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { OwnerAccessService } from './owner-access.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Forgejo's key kind for keys that belong to a user (as opposed to deploy keys). */
const USER_KEY = 'user';

export class PublicKeyService {
  private readonly keys: PublicKeyRepository;

  constructor(private readonly deps: ServiceDeps) {
    this.keys = deps.repos.publicKeys;
  }

  async create(owner: User, title: string, keyText: string): Promise<PublicKey> {
    const parsed = this.checkKeyText(keyText);
    const name = title.trim();
    if (name === '') throw new ValidationError('[Title]: Required');
    const [sameKey, sameTitle] = await Promise.all([
      this.keys.existsWithFingerprint(parsed.fingerprint),
      this.keys.ownerHasTitle(owner.id, name),
    ]);
    if (sameKey) throw new ValidationError(`public key already exists [fingerprint: ${parsed.fingerprint}]`);
    if (sameTitle) throw new ValidationError(`public key name already exists [name: ${name}]`);
    try {
      return await this.keys.create(owner.id, {
        name,
        fingerprint: parsed.fingerprint,
        content: parsed.content,
        keyType: USER_KEY,
      });
    } catch (error) {
      if (error instanceof NameTakenError)
        throw new ValidationError(`public key already exists [fingerprint: ${parsed.fingerprint}]`);
      throw error;
    }
  }

  /** An SSH public key's text parsed, refused (422) when it is not one or is smaller than [ssh.minimum_key_sizes]. */
  checkKeyText(keyText: string): ParsedSshKey {
    let parsed;
    try {
      parsed = parseSshPublicKey(keyText);
    } catch (error) {
      if (error instanceof SshKeyError) throw new ValidationError(`invalid key content: ${error.message}`);
      throw error;
    }
    const minimum = this.minimumBits(parsed.algorithm);
    if (minimum > 0 && parsed.bits < minimum) {
      throw new ValidationError(
        `key is too small: ${parsed.algorithm} keys need at least ${minimum} bits, this one has ${parsed.bits}`,
      );
    }
    return parsed;
  }

  /** One page of a user's keys; `fingerprint` narrows it to that key. */
  list(owner: User, fingerprint: string | undefined, page: ListOptions): Promise<{ keys: PublicKey[]; total: number }> {
    return this.keys.listByOwner(owner.id, fingerprint || undefined, page.skip, page.limit);
  }

  /**
   * A key by id with its owner, as Forgejo shows any key to a signed-in caller (keys are public); a key of an owner
   * the viewer may not see is as missing as an unknown id.
   */
  async get(viewer: User, id: number): Promise<{ key: PublicKey; owner: User }> {
    const key = await this.keys.findById(id);
    // A deploy key (no owner) is a repository's, not one of a user's keys.
    const ownerId = key?.ownerId ?? null;
    const owner = ownerId === null ? null : ownerId === viewer.id ? viewer : await this.deps.repos.users.byId(ownerId);
    if (!key || !owner || !(await new OwnerAccessService(this.deps).canSee(viewer, owner)))
      throw new NotFoundError(`public key does not exist [id: ${id}]`);
    return { key, owner };
  }

  /** Deletes a key of `owner`: 404 when there is no such key, 403 when it belongs to someone else. */
  async delete(owner: User, id: number): Promise<void> {
    const ownerId = await this.keys.findOwnerId(id);
    if (ownerId === null) throw new NotFoundError(`public key does not exist [id: ${id}]`);
    // Per key, so not a guard's: whose key it is is known only once it is found.
    if (ownerId !== owner.id) throw new ForbiddenError('You do not have access to this key');
    await this.keys.delete(owner.id, id);
  }

  /** [ssh.minimum_key_sizes]; 0 or less switches the check off for that algorithm. */
  private minimumBits(algorithm: 'rsa' | 'ecdsa' | 'ed25519'): number {
    if (!this.deps.settings.ssh.MINIMUM_KEY_SIZE_CHECK) return 0;
    const sizes = this.deps.settings['ssh.minimum_key_sizes'];
    return { rsa: sizes.RSA, ecdsa: sizes.ECDSA, ed25519: sizes.ED25519 }[algorithm];
  }
}
