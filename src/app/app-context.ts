// Everything a request handler or service may reach, built once per process; the database itself is here for the
// process's own start and shutdown (services get its repositories only).
import type Redis from 'ioredis';
import type { SignInThrottle } from '../auth/sign-in-throttle.ts';
import type { Database } from '../infra/database/database.ts';
import type { Services } from './create-services.ts';
import type { ServiceDeps } from '../services/service-deps.ts';

export interface AppContext extends ServiceDeps {
  readonly db: Database;
  readonly services: Services;
  readonly signInThrottle: SignInThrottle;
  /** The Redis the processes share ([queue] TYPE=redis), closed at shutdown; null without. */
  readonly sharedRedis: Redis | null;
}
