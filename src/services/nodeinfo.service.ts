// NodeInfo 2.1 (Forgejo: routers/api/v1/misc/nodeinfo.go): usage counts are cached for 180 s per process, and
// [federation] SHARE_USER_STATISTICS=false keeps them private.
import type { NodeInfoFacts, SiteUsageRepository, SiteUsage } from '../db/site-usage.repository.ts';
import type { ServiceDeps } from './service-deps.ts';

const CACHE_MS = 180_000;
const DAY_MS = 86_400_000;

export class NodeInfoService {
  private readonly usage: SiteUsageRepository;
  private cached: { at: number; usage: Promise<SiteUsage> } | null = null;

  constructor(private readonly deps: ServiceDeps) {
    this.usage = deps.repos.siteUsage;
  }

  async facts(): Promise<NodeInfoFacts> {
    const { federation, service } = this.deps.settings;
    return {
      usage: federation.SHARE_USER_STATISTICS ? await this.cachedUsage() : null,
      openRegistrations: !service.DISABLE_REGISTRATION,
    };
  }

  private cachedUsage(): Promise<SiteUsage> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > CACHE_MS) {
      const usage = this.usage.count(new Date(now - 30 * DAY_MS), new Date(now - 180 * DAY_MS));
      this.cached = { at: now, usage };
      // A failed count is not remembered.
      usage.catch(() => {
        if (this.cached?.usage === usage) this.cached = null;
      });
    }
    return this.cached.usage;
  }
}
