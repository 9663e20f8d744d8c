// ActivityPub actors of users (Forgejo: routers/api/v1/activitypub/person.go, reqsignature.go): each user's RSA
// key pair is made on first use and kept; the inbox accepts what is signed by the key its keyId names.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { ActorKeys } from '../activitypub/actor-keys.ts';
import { parseSignature, signatureMatches, UnverifiableSignatureError, type SignedRequest } from '../activitypub/http-signature.ts';
import { RemoteDocumentError } from '../activitypub/remote-document.ts';
import type { User } from '../db/prisma.ts';
import { parseHostAllowList } from '../domain/host-allow-list.ts';
import type { UserKeyPairRepository } from '../db/user-key-pair.repository.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../errors.ts';
import type { ServiceDeps } from './service-deps.ts';

const generateRsaKeyPair = promisify(generateKeyPair);
const KEY_BITS = 3072;
const MiB = 1024 * 1024;

export class ActivityPubService {
  private readonly keyPairs: UserKeyPairRepository;
  private readonly actorKeys: ActorKeys;

  constructor(private readonly deps: ServiceDeps) {
    this.keyPairs = deps.repos.userKeyPairs;
    const { federation } = deps.settings;
    this.actorKeys = new ActorKeys({
      allowList: parseHostAllowList(federation.ALLOWED_HOST_LIST),
      timeoutMs: federation.FETCH_TIMEOUT,
      maxBytes: federation.MAX_SIZE * MiB,
    });
  }

  private async user(userId: number): Promise<User> {
    const user = await this.deps.db.hot.userById(userId);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** The user and the public half of its key pair, made now when it has none. */
  async person(userId: number): Promise<{ user: User; publicKeyPem: string }> {
    const user = await this.user(userId);
    const existing = await this.keyPairs.find(user.id);
    if (existing) return { user, publicKeyPem: existing.publicKeyPem };
    const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
      modulusLength: KEY_BITS,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const stored = await this.keyPairs.createOrKeepFirst(user.id, publicKey, privateKey);
    return { user, publicKeyPem: stored.publicKeyPem };
  }

  /**
   * Accepts a delivery to a user's inbox when its HTTP Signature verifies: 400 when it is missing or cannot be
   * checked (bad header, stale date, wrong digest, unreachable or disallowed key), 403 when it does not match.
   * Nothing is done with the activity yet, as in Forgejo. `signal` abandons the key fetch (the client left).
   */
  async receive(userId: number, request: SignedRequest, signal: AbortSignal): Promise<void> {
    await this.user(userId);
    try {
      const signature = parseSignature(request);
      let key = await this.actorKeys.get(signature.keyId, signal);
      if (signatureMatches(signature, key.pem)) return;
      if (key.cached) {
        key = await this.actorKeys.get(signature.keyId, signal, true);
        if (signatureMatches(signature, key.pem)) return;
      }
    } catch (error) {
      if (error instanceof UnverifiableSignatureError) throw new BadRequestError(error.message);
      if (error instanceof RemoteDocumentError) {
        this.deps.log.info({ reason: error.reason }, 'an actor key could not be fetched');
        throw new BadRequestError(`the actor's key could not be fetched: ${error.message}`);
      }
      throw error;
    }
    throw new ForbiddenError('request signature verification failed');
  }
}
