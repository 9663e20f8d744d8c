// Another Anvil on the same data directory and database as a running test app, as after a restart or beside it in
// a second process. Closing it leaves the data in place (the first app's close removes it).
import type { Express } from 'express';
import supertest from 'supertest';
import { createApp } from '../../src/http/app.ts';
import type { AppContext } from '../../src/app/app-context.ts';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger, type Logger } from '../../src/infra/observability/logger.ts';
import type { TestApp } from './test-app.ts';

export interface SecondApp {
  readonly app: Express;
  readonly context: AppContext;
  request(): supertest.Agent;
  close(): Promise<void>;
}

/** `env` adds settings as ANVIL__section__KEY variables. */
export async function startSecondApp(
  first: TestApp,
  env: Record<string, string> = {},
  log?: Logger,
): Promise<SecondApp> {
  const settings = loadSettings({
    ANVIL_DATA_DIR: first.dataDir,
    ANVIL_ROOT_URL: 'http://localhost:3000/',
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__log__LEVEL: 'silent',
    ...(first.context.settings.database.URL ? { DATABASE_URL: first.context.settings.database.URL } : {}),
    ...env,
  });
  const context = await bootstrap(settings, log ?? createLogger(settings.log.LEVEL));
  const app = createApp(context, { validateResponses: true });
  return {
    app,
    context,
    request: () => supertest.agent(app),
    close: async () => {
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
    },
  };
}
