// Administration from the command line, with Forgejo's command names and flags; works on an empty data directory
// before the server ever ran. `cli --help` and `cli <command> --help` list everything.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { bootstrap } from './app/bootstrap.ts';
import type { AppContext } from './app/app-context.ts';
import { ConfigError, loadSettings, type Settings } from './config/settings.ts';
import { databaseTarget } from './infra/database/database.ts';
import { migrateDatabase } from './infra/database/migrate.ts';
import { createLogger } from './infra/observability/logger.ts';
import { ApiError } from './domain/errors.ts';
import { defaultDumpFile, dumpInstance } from './maintenance/dump.ts';
import { restoreInstance } from './maintenance/restore.ts';
import { keepNewFilesPrivate, makePrivateDirectory } from './infra/private-files.ts';
import { ANVIL_VERSION } from './lib/version.ts';
import { adminCommand, booleanFlag } from './cli/admin-command.ts';

const program = new Command('anvil')
  .description('Anvil, a git-hosting server speaking Forgejo API v1')
  .version(ANVIL_VERSION, '-v, --version', 'print the version')
  .option('-c, --config <path>', 'the app.ini to read (else ANVIL_CONFIG, else $ANVIL_DATA_DIR/app.ini)');

function settings(): Settings {
  return loadSettings(process.env, { configFile: program.opts().config });
}

async function withContext<T>(work: (context: AppContext) => Promise<T>): Promise<T> {
  const context = await bootstrap(settings(), createLogger('warn'));
  try {
    return await work(context);
  } finally {
    await context.db.close();
  }
}

/** Checks that change nothing; with fix, the data directory is created when missing. */
async function doctorCheck(fix: boolean): Promise<boolean> {
  const current = settings();
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
    const dir = current.server.APP_DATA_PATH;
    if (fix) makePrivateDirectory(dir);
    fs.accessSync(dir, fs.constants.R_OK | fs.constants.W_OK);
    return dir;
  });
  await check('git', () => execFileSync('git', ['--version'], { encoding: 'utf8' }).trim());
  if (fs.existsSync(current.server.APP_DATA_PATH) || current.database.URL)
    await check('database', async () =>
      withContext(async (context) => {
        if (!(await context.services.system.databaseHealthy())) throw new Error('does not answer');
        return `${context.db.provider}, ${await context.services.system.accountCount()} users and organizations`;
      }),
    );
  return healthy;
}

/** `dump --file -`: the archive is made privately beside the system's temporary files, then streamed out. */
async function dumpToStdout(current: Settings): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-dump-'));
  try {
    const { file } = await dumpInstance(current, {
      file: path.join(dir, 'dump.tar.gz'),
      report: (line) => console.error(line),
    });
    await new Promise<void>((resolve, reject) =>
      fs.createReadStream(file).on('error', reject).pipe(process.stdout).on('error', reject).on('finish', resolve),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

program.addCommand(adminCommand(withContext));

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => {
    const applied = await migrateDatabase(databaseTarget(settings()));
    console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
  });

const doctor = program.command('doctor').description('Diagnose problems');
doctor
  .command('check', { isDefault: true })
  .description('Check the data directory, git and the database (changes nothing unless --fix)')
  .addOption(booleanFlag('--fix', 'repair what can be repaired', false))
  .action(async (options) => {
    if (!(await doctorCheck(options.fix))) process.exitCode = 1;
  });

program
  .command('dump')
  .description('Dump the database, repositories and files into one archive (while serving)')
  .option('-f, --file <path>', 'the archive; - writes it to standard output', defaultDumpFile())
  .action(async (options) => {
    const current = settings();
    if (options.file === '-') return dumpToStdout(current);
    await dumpInstance(current, { file: options.file, report: (line) => console.log(line) });
  });

program
  .command('restore')
  .description('Restore a dump into an empty data directory and database')
  .argument('<archive>', 'the dump archive')
  .action(async (archive: string) => {
    const env = program.opts().config ? { ...process.env, ANVIL_CONFIG: program.opts().config } : process.env;
    await restoreInstance(archive, env, { report: (line) => console.log(line) });
  });

function report(error: unknown): number {
  if (error instanceof CommanderError) return error.exitCode;
  if (error instanceof ConfigError) console.error(`Invalid configuration: ${error.message}`);
  else if (error instanceof ApiError) console.error(`error: ${error.message}`);
  else console.error(`error: ${(error as Error).message}`);
  return 1;
}

/** Errors and --help reach report() from every command, not process.exit inside commander. */
function overrideExits(command: Command): void {
  command.exitOverride().showHelpAfterError();
  command.commands.forEach(overrideExits);
}

keepNewFilesPrivate();
overrideExits(program);
program.parseAsync(process.argv).then(
  () => process.exit(process.exitCode ?? 0),
  (error: unknown) => process.exit(report(error)),
);
