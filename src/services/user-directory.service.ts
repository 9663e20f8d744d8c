// Finding users as any caller may (Forgejo: routers/api/v1/user/user.go Search): individual accounts the viewer
// may see, by name, full name or id.
import type { User } from '../db/entities.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';

export class UserDirectoryService {
  constructor(private readonly deps: ServiceDeps) {}

  search(
    viewer: User | null,
    query: { q?: string; uid?: number },
    page: ListOptions,
  ): Promise<{ users: User[]; total: number }> {
    return this.deps.repos.users.searchVisible(viewer, query.q ?? '', query.uid ?? 0, page.skip, page.limit);
  }
}
