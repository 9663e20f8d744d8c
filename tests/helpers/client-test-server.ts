// A running Anvil for a real client's integration test: a working directory of its own, a database of its own (on
// TEST_DATABASE_URL's server when that is set, so the PostgreSQL pass runs these tests on PostgreSQL; SQLite in the
// data directory otherwise), users made with the admin CLI (password `<name>-password`, one access token each),
// and the server started from dist/ on loopback.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type AnvilProcess, startAnvilProcess } from './anvil-process.ts';
import { freshPostgresDatabase } from './template-database.ts';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

export interface ClientTestServer {
  /** A temporary directory for the test; removed by stop(). */
  readonly work: string;
  readonly server: AnvilProcess;
  /** The server's root URL, ending in a slash. */
  readonly base: string;
  /** Each user's access token, by name. */
  readonly tokens: Readonly<Record<string, string>>;
  /** The environment the server and its CLI run with. */
  env(): NodeJS.ProcessEnv;
  /** Runs Anvil's CLI on the same data directory and database. */
  cli(args: string[]): Promise<{ stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

export interface ClientTestServerOptions {
  /** Names the temporary directory. */
  name: string;
  /** A directory the test made already (and may have filled); one is made otherwise. Removed by stop(). */
  work?: string;
  /** Users made before the server starts. */
  users?: readonly string[];
  /** Settings beyond the defaults (ANVIL__section__KEY variables). */
  env?: NodeJS.ProcessEnv;
  /** Settings that name the port (TLS's root URL, say); they override the loopback defaults. */
  serverEnv?: (port: number) => NodeJS.ProcessEnv;
}

export async function startClientTestServer(options: ClientTestServerOptions): Promise<ClientTestServer> {
  const work = options.work ?? fs.mkdtempSync(path.join(os.tmpdir(), `anvil-${options.name}-`));
  const postgres = process.env.TEST_DATABASE_URL;
  const database = postgres ? await freshPostgresDatabase(postgres, { empty: true }) : undefined;
  const env = (): NodeJS.ProcessEnv => {
    const vars: NodeJS.ProcessEnv = {
      ...process.env,
      ANVIL_DATA_DIR: path.join(work, 'data'),
      // The cheapest argon2 parameters: the tests log in often.
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
      ...options.env,
    };
    if (database) vars.DATABASE_URL = database.url;
    else delete vars.DATABASE_URL;
    return vars;
  };
  const cli = (args: string[]) => run(process.execPath, ['dist/src/cli.js', ...args], { cwd: root, env: env() });
  let server: AnvilProcess | undefined;
  const stop = async () => {
    if (server) {
      server.child.kill();
      await server.exited;
    }
    await database?.drop();
    fs.rmSync(work, { recursive: true, force: true });
  };
  try {
    const tokens: Record<string, string> = {};
    for (const name of options.users ?? []) {
      const { stdout } = await cli([
        'admin',
        'user',
        'create',
        ...['--username', name, '--password', `${name}-password`, '--email', `${name}@example.com`],
        '--must-change-password=false',
        '--access-token',
      ]);
      tokens[name] = stdout.trim().split('\n').pop()!;
    }
    server = await startAnvilProcess((port) => ({
      ...env(),
      PORT: String(port),
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
      ...options.serverEnv?.(port),
    }));
    return { work, server, base: server.base, tokens, env, cli, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
