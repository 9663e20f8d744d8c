// Index documents a registry builds from a package's rows (npm's packuments, Cargo's index files…), kept in memory
// with the package revision they were built at (Package.revision): a request reads the revision (one small query)
// and serves the kept document while it is current, else builds it again. Every process keeps its own and asks the
// database, so processes sharing it never serve a stale document. A document is compressed once, on the first
// request that accepts gzip, and kept so too: a large index file then costs a small write per request.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';

export interface CachedDocument {
  body: string;
  /** A strong entity tag of the body. */
  etag: string;
  revision: number;
  /** The body gzip-compressed, once a client asked for it. */
  gzipped?: Buffer;
}

const MAX_BYTES = 32 * 1024 * 1024;

export class DocumentCache {
  private readonly documents = new LRUCache<string, CachedDocument>({
    maxSize: MAX_BYTES,
    sizeCalculation: (document) => document.body.length + 200,
  });

  /** The document kept for the key when it was built at this revision. */
  current(key: string, revision: number): CachedDocument | undefined {
    const kept = this.documents.get(key);
    return kept?.revision === revision ? kept : undefined;
  }

  /** Keeps a document built from rows read after the revision was. */
  keep(key: string, revision: number, body: string): CachedDocument {
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const document = { body, etag, revision };
    if (body.length < MAX_BYTES / 4) this.documents.set(key, document);
    return document;
  }
}

/** The document's body compressed, made on first use. */
export function gzippedBody(document: CachedDocument): Buffer {
  document.gzipped ??= gzipSync(document.body);
  return document.gzipped;
}
