// Anvil as a process of its own, started as npm start starts it (scripts/start.cjs: the bundle in dist/), for what
// only a real process shows: signals, restarts, several processes on one database.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './free-port.ts';

const root = path.resolve(__dirname, '../..');
const START_MS = 45_000;

export interface AnvilProcess {
  /** Its root URL, ending in a slash. */
  readonly base: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** Its exit code, once it has exited and its output is read to the end. */
  readonly exited: Promise<number | null>;
  /** What it printed so far, standard output and error together. */
  output(): string;
}

/** Whether the output has Anvil's "listening" log line for this port. */
function listensOn(output: string, port: number): boolean {
  return output.split('\n').some((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      return entry.msg === 'Anvil is listening' && entry.port === port;
    } catch {
      return false;
    }
  });
}

/**
 * Starts Anvil on a port free when chosen, with the environment `env(port)` gives (its log level must show info,
 * the default here), and resolves once it has logged that it listens on that port. An answer on the port would
 * not show that: another test's server may take the port between its choice and its use, and answer instead.
 * When the port was taken meanwhile (EADDRINUSE, or Anvil's own "already in use" refusal) it starts again on
 * another port.
 */
export async function startAnvilProcess(env: (port: number) => NodeJS.ProcessEnv, attempts = 3): Promise<AnvilProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.cjs'], {
    cwd: root,
    env: { ANVIL__log__LEVEL: 'info', ...env(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const started = new Promise<boolean>((resolve) => {
    let listening = false;
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (!listening && listensOn(output, port)) resolve((listening = true));
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => resolve(false));
  });
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), START_MS)));
  const outcome = await Promise.race([started, gaveUp]);
  clearTimeout(timer);
  if (outcome === true) return { base: `http://127.0.0.1:${port}/`, port, child, exited, output: () => output };
  child.kill('SIGKILL');
  if (outcome === false && attempts > 1 && /EADDRINUSE|already in use/.test(output))
    return startAnvilProcess(env, attempts - 1);
  throw new Error(`Anvil did not start on port ${port}: ${output.slice(-2000)}`);
}
