// The bytes of manifests recently served, by SHA-256: content-addressed, so an entry can never be stale (a deleted
// manifest is not found by its row first), and a pull's manifest GETs answer from memory instead of the store.
import { buffer } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';

/** Manifests are small (at most 10 MiB, most a few KiB); this bounds what the cache holds in all. */
const CACHE_BYTES = 16 * 1024 * 1024;

export class ManifestBytes {
  private readonly cache = new LRUCache<string, Buffer>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (bytes) => Math.max(1, bytes.length),
  });

  constructor(private readonly open: (sha256: string) => Promise<Readable>) {}

  async get(sha256: string): Promise<Buffer> {
    const cached = this.cache.get(sha256);
    if (cached) return cached;
    const bytes = await buffer(await this.open(sha256));
    if (bytes.length <= CACHE_BYTES / 4) this.cache.set(sha256, bytes);
    return bytes;
  }
}
