// The build's warm start of dist/anvil.js: starts the server as `npm start` does (same V8 options, or V8 refuses the
// cache), on a scratch data directory and a unix socket, asks /api/healthz once, and stops it; as it exits, the
// server writes V8's cache of what it compiled and the list of packages it loaded (code-cache.cjs).
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { npmStartCommand } = require('./npm-start-command.cjs');

const root = path.resolve(__dirname, '..');
const START_MS = 60_000;

function healthz(socketPath) {
  return new Promise((resolve) => {
    http
      .get({ socketPath, path: '/api/healthz' }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      })
      .on('error', () => resolve(false));
  });
}

async function warm() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-code-cache-'));
  const socketPath = path.join(scratch, 'anvil.sock');
  const { env, nodeArgs, args } = npmStartCommand();
  // Only what the start needs: settings the caller's environment holds (DATABASE_URL, ANVIL__…) stay out.
  const settings = {
    PATH: process.env.PATH,
    HOME: scratch,
    ANVIL_DATA_DIR: scratch,
    ANVIL__server__PROTOCOL: 'http+unix',
    ANVIL__server__HTTP_ADDR: socketPath,
    ANVIL__log__LEVEL: 'error',
    ANVIL__cron__ENABLED: 'false',
  };
  // Migrated first, as the database of a usual start is: migrating loads what no other start does.
  execFileSync(process.execPath, [path.join(root, 'dist', 'src', 'cli.js'), 'migrate'], {
    env: settings,
    stdio: 'ignore',
  });
  const server = spawn(process.execPath, [...nodeArgs, ...args], {
    cwd: root,
    env: { ...settings, ...env, ANVIL_WARM_START: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => server.once('exit', (code) => resolve(code)));
  try {
    const giveUp = Date.now() + START_MS;
    while (!(await healthz(socketPath))) {
      if (server.exitCode !== null || Date.now() > giveUp) throw new Error('the server did not start');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    server.kill('SIGTERM');
    if ((await exited) !== 0) throw new Error('the server did not stop cleanly');
  } finally {
    server.kill('SIGKILL');
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

warm().catch((error) => {
  console.error(`warm start: ${error.message}`);
  process.exit(1);
});
