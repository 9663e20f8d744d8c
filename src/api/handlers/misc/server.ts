import fs from 'node:fs';
import { ANVIL_VERSION } from '../../../lib/version.ts';
import type { Handler } from '../../route.ts';
import { projectPath } from '../../../lib/project-root.ts';

export const getVersion: Handler<'getVersion'> = (ctx) => {
  ctx.send(200, { version: ANVIL_VERSION });
};

export const healthCheck: Handler<'healthCheck'> = async (ctx) => {
  if (await ctx.app.services.system.databaseHealthy()) ctx.send(200, { status: 'pass' });
  else ctx.send(503, { status: 'fail', description: 'the database does not answer' });
};

const contractFile = projectPath('spec', 'forgejo-v1.swagger.json');
let contract: unknown;

export const getApiContract: Handler<'getApiContract'> = (ctx) => {
  contract ??= JSON.parse(fs.readFileSync(contractFile, 'utf8'));
  ctx.send(200, contract as Record<string, never>);
};
