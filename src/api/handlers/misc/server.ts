import fs from 'node:fs';
import { ANVIL_VERSION } from '../../../lib/version.ts';
import type { Handler } from '../../route.ts';
import { projectPath } from '../../../lib/project-root.ts';

export const getVersion: Handler<'getVersion'> = (ctx) => {
  ctx.send(200, { version: ANVIL_VERSION });
};

/**
 * Forgejo's health document: `database:ping` fails when the database does not answer (424, Failed Dependency);
 * `cache:ping` passes, Anvil keeping no cache a request depends on.
 */
export const healthCheck: Handler<'healthCheck'> = async (ctx) => {
  const time = new Date().toISOString();
  const database = (await ctx.app.services.system.databaseHealthy())
    ? { status: 'pass' as const, time }
    : { status: 'fail' as const, time, output: 'the database does not answer' };
  const status = database.status;
  ctx.send(status === 'pass' ? 200 : 424, {
    status,
    description: ctx.app.settings[''].APP_NAME,
    checks: { 'database:ping': [database], 'cache:ping': [{ status: 'pass', time }] },
  });
};

const contractFile = projectPath('spec', 'forgejo-v1.swagger.json');
let contract: unknown;

export const getApiContract: Handler<'getApiContract'> = (ctx) => {
  contract ??= JSON.parse(fs.readFileSync(contractFile, 'utf8'));
  ctx.send(200, contract as Record<string, never>);
};
