// Builds the application context from settings: database migrated and opened, services wired.
import fs from 'node:fs';
import type { AppContext } from './app-context.ts';
import { passwordHasher } from './auth/password.ts';
import type { Settings } from './config.ts';
import { databaseTarget, openDatabase } from './db/database.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createLogger, type Logger } from './logger.ts';
import { createRepositories, transactions } from './db/repositories.ts';
import { createServices } from './services/index.ts';
import { createBlobStore } from './storage/blob-store.ts';

export async function bootstrap(settings: Settings, log: Logger = createLogger(settings.log.LEVEL)): Promise<AppContext> {
  fs.mkdirSync(settings.server.APP_DATA_PATH, { recursive: true });
  fs.mkdirSync(settings.repository.ROOT, { recursive: true });
  const target = databaseTarget(settings);
  const applied = await migrateDatabase(target);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  const db = openDatabase(target);
  const passwords = passwordHasher(settings.security.PASSWORD_HASH_ALGO, { concurrency: settings.security.PASSWORD_HASH_CONCURRENCY });
  const deps = {
    settings, db, repos: createRepositories(db.prisma, db.provider), transactions: transactions(db.prisma, db.provider),
    packageBlobs: createBlobStore(settings.packages), log, passwords,
  };
  return { ...deps, services: createServices(deps) };
}
