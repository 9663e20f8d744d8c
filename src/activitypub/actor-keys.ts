// Public keys of remote actors by keyId (`<actor>#main-key`): read from the actor document the keyId points at
// and kept for a while, so a busy sender is not fetched on every delivery. A key that stops verifying is fetched
// again once (the actor may have rotated it).
import { fetchRemoteDocument, type RemoteFetchOptions, unreachable } from './remote-document.ts';

const KEEP_MS = 60 * 60 * 1000;
const MAX_ENTRIES = 1000;

interface PublicKeyEntry {
  id?: unknown;
  publicKeyPem?: unknown;
}

/** The PEM of the key named keyId in an actor (or key) document. */
function publicKeyOf(document: unknown, keyId: string): string {
  if (typeof document !== 'object' || document === null) throw unreachable('the key document is not an object');
  const doc = document as { publicKey?: PublicKeyEntry | PublicKeyEntry[]; publicKeyPem?: unknown };
  if (typeof doc.publicKeyPem === 'string') return doc.publicKeyPem;
  const keys = Array.isArray(doc.publicKey) ? doc.publicKey : doc.publicKey ? [doc.publicKey] : [];
  const key =
    keys.find((entry) => entry.id === keyId) ?? (keys.length === 1 && keys[0].id === undefined ? keys[0] : undefined);
  if (!key || typeof key.publicKeyPem !== 'string') throw unreachable(`the actor document has no key ${keyId}`);
  return key.publicKeyPem;
}

export class ActorKeys {
  private readonly cache = new Map<string, { pem: string; until: number }>();

  constructor(private readonly options: RemoteFetchOptions) {}

  /** The key, from the cache unless `fresh`; whether it came from the cache. `signal` abandons a fetch. */
  async get(keyId: string, signal: AbortSignal, fresh = false): Promise<{ pem: string; cached: boolean }> {
    const entry = this.cache.get(keyId);
    if (!fresh && entry && entry.until > Date.now()) return { pem: entry.pem, cached: true };
    const pem = publicKeyOf(await fetchRemoteDocument(keyId, this.options, signal), keyId);
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.delete(keyId);
    this.cache.set(keyId, { pem, until: Date.now() + KEEP_MS });
    return { pem, cached: false };
  }
}
