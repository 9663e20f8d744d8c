// Runs the real git client against a test server (asynchronously: the server answers in this same process).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { TestApp } from './test-app.ts';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function git(args: string[], cwd?: string): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [
        '-c',
        'user.name=Test',
        '-c',
        'user.email=test@example.com',
        '-c',
        'init.defaultBranch=main',
        '-c',
        'credential.helper=',
        ...args,
      ],
      {
        cwd,
        env: {
          PATH: process.env.PATH,
          HOME: os.tmpdir(),
          GIT_TERMINAL_PROMPT: '0',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          LANG: 'C',
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

export async function gitOk(args: string[], cwd?: string): Promise<string> {
  const result = await git(args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export function tempDir(prefix = 'anvil-git-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Listens the app on an ephemeral port; returns the base URL (with a trailing slash) and the server. */
export async function listen(t: Pick<TestApp, 'app'>): Promise<{ server: Server; base: string }> {
  const server = await new Promise<Server>((resolve) => {
    const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

/** base URL with credentials: http://user:secret@127.0.0.1:port/ */
export function withCredentials(base: string, user: string, secret = ''): string {
  const url = new URL(base);
  url.username = encodeURIComponent(user);
  url.password = encodeURIComponent(secret);
  return url.toString();
}
