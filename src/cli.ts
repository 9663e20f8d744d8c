// Administration from the command line: works on an empty data directory before the server ever ran.
//   admin user create --username U --password P --email E [--admin] [--must-change-password=false] [--access-token]
//   migrate | doctor
//   dump [--file PATH] | restore ARCHIVE
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { bootstrap } from './app/bootstrap.ts';
import { ConfigError, loadSettings } from './config/settings.ts';
import { databaseTarget } from './infra/database/database.ts';
import { migrateDatabase } from './infra/database/migrate.ts';
import { createLogger } from './infra/observability/logger.ts';
import { ApiError } from './domain/errors.ts';
import { defaultDumpFile, dumpInstance } from './maintenance/dump.ts';
import { restoreInstance } from './maintenance/restore.ts';
import { keepNewFilesPrivate, makePrivateDirectory } from './infra/private-files.ts';

function parseFlags(args: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const match = /^--([^=]+)(?:=(.*))?$/.exec(args[i]);
    if (!match) throw new Error(`unexpected argument: ${args[i]}`);
    if (match[2] !== undefined) flags.set(match[1], match[2]);
    else if (args[i + 1] !== undefined && !args[i + 1].startsWith('--')) flags.set(match[1], args[++i]);
    else flags.set(match[1], 'true');
  }
  return flags;
}

function flagBoolean(flags: Map<string, string>, name: string, fallback: boolean): boolean {
  const value = flags.get(name);
  return value === undefined ? fallback : value === 'true';
}

async function createUser(args: string[]): Promise<void> {
  const flags = parseFlags(args);
  for (const required of ['username', 'password', 'email']) {
    if (!flags.get(required)) throw new Error(`--${required} is required`);
  }
  const settings = loadSettings();
  const context = await bootstrap(settings, createLogger('warn'));
  try {
    const user = await context.services.users.create({
      username: flags.get('username')!,
      password: flags.get('password')!,
      email: flags.get('email')!,
      isAdmin: flagBoolean(flags, 'admin', false),
      mustChangePassword: flagBoolean(flags, 'must-change-password', true),
    });
    console.log(`New user '${user.name}' has been successfully created!`);
    if (flagBoolean(flags, 'access-token', false)) {
      const { secret } = await context.services.accessTokens.create(user, `cli-${Date.now()}`, ['all']);
      console.log(secret);
    }
  } finally {
    await context.db.close();
  }
}

async function doctor(): Promise<boolean> {
  const settings = loadSettings();
  let healthy = true;
  const check = async (name: string, probe: () => Promise<string> | string) => {
    try {
      console.log(`ok    ${name}: ${await probe()}`);
    } catch (error) {
      healthy = false;
      console.log(`FAIL  ${name}: ${(error as Error).message}`);
    }
  };
  await check('data directory', () => {
    makePrivateDirectory(settings.server.APP_DATA_PATH);
    fs.accessSync(settings.server.APP_DATA_PATH, fs.constants.W_OK);
    return settings.server.APP_DATA_PATH;
  });
  await check('git', () => execFileSync('git', ['--version'], { encoding: 'utf8' }).trim());
  await check('database', async () => {
    const context = await bootstrap(settings, createLogger('warn'));
    try {
      if (!(await context.services.system.databaseHealthy())) throw new Error('does not answer');
      return `${context.db.provider}, ${await context.services.system.accountCount()} users and organizations`;
    } finally {
      await context.db.close();
    }
  });
  return healthy;
}

async function main(argv: string[]): Promise<number> {
  keepNewFilesPrivate();
  const [command, ...rest] = argv;
  if (command === 'admin' && rest[0] === 'user' && rest[1] === 'create') {
    await createUser(rest.slice(2));
    return 0;
  }
  if (command === 'migrate') {
    const applied = await migrateDatabase(databaseTarget(loadSettings()));
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
    return 0;
  }
  if (command === 'doctor') return (await doctor()) ? 0 : 1;
  if (command === 'dump') {
    const file = parseFlags(rest).get('file') ?? defaultDumpFile();
    if (file === 'true') throw new Error('--file needs a path');
    await dumpInstance(loadSettings(), { file, report: (line) => console.log(line) });
    return 0;
  }
  if (command === 'restore' && rest.length === 1 && !rest[0].startsWith('--')) {
    await restoreInstance(rest[0], process.env, { report: (line) => console.log(line) });
    return 0;
  }
  console.error(
    'usage: cli admin user create --username U --password P --email E [--admin] [--must-change-password=false] [--access-token]\n' +
      '       cli migrate\n       cli doctor\n       cli dump [--file PATH]\n       cli restore ARCHIVE',
  );
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
    else if (error instanceof ApiError) console.error(`error: ${error.message}`);
    else console.error(`error: ${(error as Error).message}`);
    process.exit(1);
  },
);
