// ActivityPub actors of users (Forgejo: routers/api/v1/activitypub/person.go, reqsignature.go): each user's RSA
// key pair is made by a background worker, one at a time, never on a request (Forgejo makes it on first use, so
// anonymous requests for many users would keep the shared thread pool busy); the inbox accepts what is signed
// by the key its keyId names.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { ActorKeys } from '../activitypub/actor-keys.ts';
import {
  parseSignature,
  signatureMatches,
  UnverifiableSignatureError,
  type SignedRequest,
} from '../activitypub/http-signature.ts';
import { RemoteDocumentError } from '../activitypub/remote-document.ts';
import type { User } from '../db/entities.ts';
import { parseHostAllowList } from '../domain/host-allow-list.ts';
import type { UserKeyPairRepository } from '../db/user-key-pair.repository.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

const generateRsaKeyPair = promisify(generateKeyPair);
const KEY_BITS = 3072;
const MiB = 1024 * 1024;
/** How often the worker looks for users without a key pair while there are none. */
const KEY_FILL_INTERVAL_MS = 2000;
const KEYS_PER_PASS = 20;
/**
 * A 3072-bit pair costs a core ~0.1–0.5 s. After making one the worker rests three times as long, so a server that
 * gained many users at once (a migration) gives the pairs at most a quarter of a core, not one for hours.
 */
const KEY_REST_FACTOR = 3;

export class ActivityPubService {
  private readonly keyPairs: UserKeyPairRepository;
  private readonly actorKeys: ActorKeys;
  private keyWorker: { timer?: NodeJS.Timeout; pass: Promise<unknown> } | null = null;

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
    const user = await this.deps.repos.users.byId(userId);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** The user and the public half of its key pair; 404 until the worker has made the pair. */
  async person(userId: number): Promise<{ user: User; publicKeyPem: string }> {
    const user = await this.user(userId);
    const existing = await this.keyPairs.find(user.id);
    if (!existing) throw new NotFoundError('the actor of this user is not ready yet');
    return { user, publicKeyPem: existing.publicKeyPem };
  }

  /** Makes key pairs for up to `limit` users that have none, one after another; the number made. */
  async fillMissingKeys(limit = KEYS_PER_PASS): Promise<number> {
    const userIds = await this.keyPairs.listUsersWithout(limit);
    for (const userId of userIds) {
      const { publicKey, privateKey } = await generateRsaKeyPair('rsa', {
        modulusLength: KEY_BITS,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      await this.keyPairs.createOrKeepFirst(userId, publicKey, privateKey);
    }
    return userIds.length;
  }

  /** Starts making missing key pairs in the background, one at a time (main does this when federation is on). */
  startKeyWorker(intervalMs = KEY_FILL_INTERVAL_MS): void {
    if (this.keyWorker) return;
    const worker: { timer?: NodeJS.Timeout; pass: Promise<unknown> } = { pass: Promise.resolve() };
    const pass = () => {
      const started = performance.now();
      worker.pass = this.fillMissingKeys(1)
        .then(
          (made) => (made > 0 ? (performance.now() - started) * KEY_REST_FACTOR : intervalMs),
          (error: unknown) => {
            this.deps.log.error({ err: error }, 'making actor key pairs failed');
            return intervalMs;
          },
        )
        .then((restMs) => {
          if (this.keyWorker === worker) worker.timer = setTimeout(pass, restMs);
        });
    };
    this.keyWorker = worker;
    pass();
  }

  /** Stops the worker and waits for the pair it is making. */
  async stopKeyWorker(): Promise<void> {
    const worker = this.keyWorker;
    this.keyWorker = null;
    if (!worker) return;
    clearTimeout(worker.timer);
    await worker.pass;
  }

  /**
   * Accepts a delivery to a user's inbox when its HTTP Signature verifies: 400 when it is missing or cannot be
   * checked (bad header, stale date, wrong digest, unreachable or disallowed key), 403 when it does not match.
   * Nothing is done with the activity yet, as in Forgejo. `signal` abandons the key fetch (the client left).
   */
  async receive(request: SignedRequest, signal: AbortSignal): Promise<void> {
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
