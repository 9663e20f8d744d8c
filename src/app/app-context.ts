// Everything a request handler or service may reach, built once per process.
import type { Services } from './create-services.ts';
import type { ServiceDeps } from '../services/service-deps.ts';

export interface AppContext extends ServiceDeps {
  readonly services: Services;
}
