// A registry's built index documents (npm packuments, Go version lists, Composer metadata) kept in memory, each
// with the package revision it was built at (Package.revision): a request reads the revision (one small query) and
// serves the kept document while it is current, else builds it again from the rows. Every process keeps its own
// and asks the database, so processes sharing it never serve a stale document.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface IndexDocument {
  body: string;
  etag: string;
  lastModified: Date;
  revision: number;
  /** The body gzipped, made on the first request that accepts it (src/packages/core/send-index-document.ts). */
  gzipped?: Buffer;
}

const MAX_BYTES = 32 * 1024 * 1024;

export class IndexDocumentCache {
  private readonly documents = new LRUCache<string, IndexDocument>({
    maxSize: MAX_BYTES,
    // A fifth more for the gzipped copy a document may get.
    sizeCalculation: (document) => Math.ceil(document.body.length * 1.2) + 200,
  });

  /** The document kept for the key when it was built at this revision. */
  current(key: string, revision: number): IndexDocument | undefined {
    const kept = this.documents.get(key);
    return kept?.revision === revision ? kept : undefined;
  }

  /** Keeps a document built from rows read after the revision was. */
  keep(key: string, revision: number, body: string, lastModified: Date): IndexDocument {
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const document = { body, etag, lastModified, revision };
    if (body.length < MAX_BYTES / 4) this.documents.set(key, document);
    return document;
  }
}
