// Owner-wide index documents kept in memory (RubyGems' specs files, CRAN's PACKAGES), each with the revision of the
// owner's packages of the type it was built at: a request reads the revision (one aggregate query) and serves the
// kept documents while it is current, else builds them again from one query of the rows. Every process keeps its
// own and asks the database, so processes sharing it never serve a stale document.
import { LRUCache } from 'lru-cache';
import type { OwnerIndexedFile } from '../../db/owner-package-index.repository.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';

interface Kept<T> {
  revision: string;
  value: Promise<T>;
}

export class OwnerIndexCache<T extends object> {
  private readonly kept = new LRUCache<number, Kept<T>>({ max: 500 });

  constructor(
    private readonly deps: Pick<ServiceDeps, 'repos'>,
    private readonly type: string,
    private readonly build: (files: OwnerIndexedFile[]) => T,
  ) {}

  /** The owner's documents as of now: the kept ones while current, else built from the rows read after the revision. */
  async get(ownerId: number): Promise<T> {
    const index = this.deps.repos.ownerPackageIndex;
    const revision = await index.revision(ownerId, this.type);
    const found = this.kept.get(ownerId);
    if (found?.revision === revision) return found.value;
    const entry: Kept<T> = { revision, value: index.listFiles(ownerId, this.type).then(this.build) };
    this.kept.set(ownerId, entry);
    entry.value.catch(() => {
      if (this.kept.get(ownerId) === entry) this.kept.delete(ownerId);
    });
    return entry.value;
  }
}
