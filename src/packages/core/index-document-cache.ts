// Index documents a registry builds from a package's rows (NuGet's registration index and version list, say), kept
// in memory with the package revision they were built at (Package.revision): a request reads the revision (one
// small query) and is served the kept document while it is current, else the document is built again. Every
// process keeps its own and asks the database, so processes sharing one never serve a stale document.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

export interface IndexDocument {
  body: string;
  etag: string;
  revision: number;
}

const MAX_BYTES = 32 * 1024 * 1024;

export class IndexDocumentCache {
  private readonly documents = new LRUCache<string, IndexDocument>({
    maxSize: MAX_BYTES,
    sizeCalculation: (document) => document.body.length + 200,
  });

  /**
   * The document of the key at this revision: the kept one, or one built now (from rows read after the revision
   * was, so a change between the two only makes it newer than its revision says).
   */
  async get(key: string, revision: number, build: () => Promise<string>): Promise<IndexDocument> {
    const kept = this.documents.get(key);
    if (kept?.revision === revision) return kept;
    const body = await build();
    const document = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, revision };
    if (body.length < MAX_BYTES / 4) this.documents.set(key, document);
    return document;
  }
}
