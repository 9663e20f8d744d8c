// A throwaway Redis for tests: Debian's redis-server on a free loopback port, its files in a temp directory (an
// append-only file, so a stop and start keeps what it held, as a restarted Redis would). `redisServerBinary` is null
// when none is installed; tests then skip with a printed reason.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

const CANDIDATES = [process.env.ANVIL_TEST_REDIS_SERVER, '/usr/bin/redis-server', '/usr/local/bin/redis-server'];
export const redisServerBinary =
  CANDIDATES.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate)) ?? null;
export const REDIS_MISSING = 'no redis-server found (apt-get install redis-server, or set ANVIL_TEST_REDIS_SERVER)';

export interface RedisServer {
  readonly port: number;
  /** redis://127.0.0.1:PORT/0, for [queue] CONN_STR. */
  readonly url: string;
  /** Stops the server (SIGTERM; it writes its files and exits). */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  close(): Promise<void>;
}

/** True once the server answers PING. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(500, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) {
        socket.end();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(reply.startsWith('+PONG')));
  });
}

export async function startRedisServer(): Promise<RedisServer> {
  if (!redisServerBinary) throw new Error(REDIS_MISSING);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--protected-mode',
      'no',
    ];
    const started = spawn(redisServerBinary, args, { stdio: 'ignore' });
    child = started;
    let exited = false;
    started.once('exit', () => (exited = true));
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(port))) {
      if (exited) throw new Error(`redis-server exited at start (port ${port})`);
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    stop,
    start,
    async close() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
