// GET /metrics ([metrics] ENABLED) in Prometheus' text format, and the per-route request timing behind it. With
// [metrics] TOKEN set, only `Authorization: Bearer <TOKEN>` may read it (Forgejo's routers/common/middleware.go).
import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import type { Metrics } from '../infra/observability/metrics.ts';

function sameSecret(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsEndpoint(metrics: Metrics, token: string): RequestHandler {
  return (req, res, next) => {
    if (token && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
      res.status(401).set('WWW-Authenticate', 'Bearer').type('text/plain').send('unauthorized\n');
      return;
    }
    metrics.registry.metrics().then((text) => {
      res.status(200).type(metrics.registry.contentType).send(text);
    }, next);
  };
}

/** The route a request is counted under: its contract operation, else the part of the site it went to. */
function routeOf(req: Request): string {
  if (req.operation) return req.operation.id;
  if (req.originalUrl.startsWith('/v2')) return 'container_registry';
  if (req.originalUrl === '/metrics') return 'metrics';
  return 'unmatched';
}

export function timeRequests(metrics: Metrics): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics.observeRequest(routeOf(req), req.method, res.statusCode, seconds);
    });
    next();
  };
}
