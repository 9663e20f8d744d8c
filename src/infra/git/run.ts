// Runs the git CLI: arguments as an array (never through a shell), output collected, a time limit.
import { spawn, type SpawnOptions } from 'node:child_process';

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

export interface GitRunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string | Buffer;
  timeoutMs?: number;
}

/** Environment every git process gets: no prompts, no system or user configuration. */
export function gitEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C',
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
  };
  return { ...env, ...extra };
}

export function spawnGit(args: readonly string[], options: SpawnOptions & { env?: NodeJS.ProcessEnv } = {}) {
  return spawn('git', args as string[], { ...options, env: gitEnvironment(options.env), shell: false });
}

/** Runs git and resolves with its standard output; rejects with GitError on a non-zero exit or a timeout. */
export async function runGit(args: readonly string[], options: GitRunOptions = {}): Promise<string> {
  return (await runGitBytes(args, options)).toString('utf8');
}

/** runGit for output that is bytes (blobs, archives), not text. */
export function runGitBytes(args: readonly string[], options: GitRunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 60_000);
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitError(`git ${args[0]}: ${error.message}`, null, ''));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString('utf8');
      if (timedOut) return reject(new GitError(`git ${args[0]} timed out`, code, stderr));
      if (code !== 0) return reject(new GitError(`git ${args[0]} failed: ${stderr.trim()}`, code, stderr));
      resolve(Buffer.concat(out));
    });
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(options.input);
  });
}
