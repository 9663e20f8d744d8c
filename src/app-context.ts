// Everything a request handler or service may reach, built once per process.
import type { Services } from './services/index.ts';
import type { ServiceDeps } from './services/service-deps.ts';

export interface AppContext extends ServiceDeps {
  readonly services: Services;
}
