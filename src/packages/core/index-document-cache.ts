// A registry's built index documents (npm packuments, NuGet registrations, Go version lists, Composer metadata)
// kept in memory, each with the package revision it was built at (Package.revision): a request reads the revision
// (one small query) and is served the kept document while it is current, else the document is built again from
// rows read after the revision was (so a change between the two only makes it newer than its revision says).
// Every process keeps its own and asks the database, so processes sharing one never serve a stale document.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** What a document was built at: a package's revision, or a signature of several packages' revisions. */
export type Revision = number | string;

export interface IndexDocument {
  body: string;
  etag: string;
  revision: Revision;
  /** When the newest row behind it changed, for registries that send Last-Modified. */
  lastModified?: Date;
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
  current(key: string, revision: Revision): IndexDocument | undefined {
    const kept = this.documents.get(key);
    return kept?.revision === revision ? kept : undefined;
  }

  /** Keeps a document built from rows read after the revision was. */
  keep(key: string, revision: Revision, body: string, lastModified?: Date): IndexDocument {
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const document: IndexDocument = { body, etag, revision, ...(lastModified ? { lastModified } : {}) };
    if (body.length < MAX_BYTES / 4) this.documents.set(key, document);
    return document;
  }

  /** The document of the key at this revision: the kept one, or one built now. */
  async get(key: string, revision: Revision, build: () => Promise<string>): Promise<IndexDocument> {
    return this.current(key, revision) ?? this.keep(key, revision, await build());
  }
}
