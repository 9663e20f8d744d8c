// Prometheus metrics with prom-client: Node's process metrics, request durations by route, and Forgejo's gitea_*
// gauges (routers/metrics.go, modules/metrics/collector.go), read from counts the caller caches.
import type * as PromClient from 'prom-client';
import type { Registry } from 'prom-client';

type Statistics<N extends string> = Record<N, number>;

export interface Metrics {
  readonly registry: Registry;
  /** Records one answered request: its route (an operation id, or a fixed name), method, status and seconds. */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
}

export function createMetrics<N extends string>(
  version: string,
  statistics: () => Promise<Statistics<N>>,
  names: readonly N[],
): Metrics {
  // Loaded only when metrics are on ([metrics] ENABLED): prom-client and what it pulls in cost start time and RSS.
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = require('prom-client') as typeof PromClient;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new Gauge({ name: 'gitea_build_info', help: 'Build information', labelNames: ['version'], registers: [registry] })
    .labels(version)
    .set(1);
  for (const name of names) {
    new Gauge({
      name: `gitea_${name}`,
      help: `Number of ${name.replace('_', ' ')}`,
      registers: [registry],
      async collect() {
        this.set((await statistics())[name]);
      },
    });
  }
  const durations = new Histogram({
    name: 'anvil_http_request_duration_seconds',
    help: 'Time to answer a request, by route',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const requests = new Counter({
    name: 'anvil_http_requests_total',
    help: 'Requests answered, by route',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  return {
    registry,
    observeRequest(route, method, status, seconds) {
      const labels = { route, method, status: String(status) };
      durations.observe(labels, seconds);
      requests.inc(labels);
    },
  };
}
