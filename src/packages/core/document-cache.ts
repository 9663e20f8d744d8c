// Built index documents (npm's packuments, Conda's repodata) kept in memory, each with the revision it was built at
// (Package.revision, or a state over several packages): a request reads the revision (one small query) and serves
// the kept document while it is current, else builds it again from the rows. Every process keeps its own and asks the database, so processes sharing it never serve a
// stale document.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface IndexDocument {
  body: string;
  /** The body as UTF-8 bytes, made once: what a busy document is sent as. */
  bytes: Buffer;
  etag: string;
  lastModified: Date;
  revision: number | string;
}

const MAX_BYTES = 32 * 1024 * 1024;

export class DocumentCache {
  private readonly documents = new LRUCache<string, IndexDocument>({
    maxSize: MAX_BYTES,
    sizeCalculation: (document) => document.body.length + document.bytes.length + 200,
  });

  /** The document kept for the key when it was built at this revision. */
  current(key: string, revision: number | string): IndexDocument | undefined {
    const kept = this.documents.get(key);
    return kept?.revision === revision ? kept : undefined;
  }

  /** Keeps a document built from rows read after the revision was. */
  keep(key: string, revision: number | string, body: string, lastModified: Date): IndexDocument {
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const document = { body, bytes: Buffer.from(body), etag, lastModified, revision };
    if (body.length < MAX_BYTES / 4) this.documents.set(key, document);
    return document;
  }
}
