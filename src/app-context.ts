// Everything a request handler or service may reach, built once per process.
import type { PasswordHasher } from './auth/password.ts';
import type { Settings } from './config.ts';
import type { Database } from './db/database.ts';
import type { Logger } from './logger.ts';
import type { Services } from './services/index.ts';

export interface AppContext {
  readonly settings: Settings;
  readonly db: Database;
  readonly log: Logger;
  readonly passwords: PasswordHasher;
  readonly services: Services;
}
