// A real Anvil per test file: its own data directory and a fresh database (SQLite, or a new PostgreSQL
// database when TEST_DATABASE_URL is set), every response checked against the contract.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import supertest from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../src/http/app.ts';
import type { AppContext } from '../../src/app/app-context.ts';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { copySqliteTemplate, freshPostgresDatabase } from './template-database.ts';

export { freshPostgresDatabase };

export interface TestApp {
  readonly app: Express;
  readonly context: AppContext;
  readonly dataDir: string;
  /** supertest bound to the app. */
  request(): supertest.Agent;
  close(): Promise<void>;
}

/** Starts an app; `env` adds settings as ANVIL__section__KEY variables. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-test-'));
  const database = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  if (!database) copySqliteTemplate(path.join(dataDir, 'anvil.db'));
  const settings = loadSettings({
    ANVIL_DATA_DIR: dataDir,
    ANVIL_ROOT_URL: 'http://localhost:3000/',
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__log__LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const context = await bootstrap(settings, createLogger(settings.log.LEVEL));
  const app = createApp(context, { validateResponses: true });
  return {
    app,
    context,
    dataDir,
    request: () => supertest.agent(app),
    async close() {
      await context.services.markup.close();
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
