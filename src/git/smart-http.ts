// git smart HTTP over `git upload-pack|receive-pack --stateless-rpc`, as git http-backend serves it.
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { spawnGit } from './run.ts';

export type GitService = 'upload-pack' | 'receive-pack';

function pktLine(text: string): string {
  return (text.length + 4).toString(16).padStart(4, '0') + text;
}

function noCache(res: Response): void {
  res.setHeader('Expires', 'Fri, 01 Jan 1980 00:00:00 GMT');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Cache-Control', 'no-cache, max-age=0, must-revalidate');
}

/** Only `version=N` items of the Git-Protocol header are passed on to git. */
function gitProtocol(req: Request): string | undefined {
  const header = req.headers['git-protocol'];
  if (typeof header !== 'string') return undefined;
  const items = header.split(':').filter((item) => /^version=\d$/.test(item));
  return items.length > 0 ? items.join(':') : undefined;
}

/** Streams git's output to the response; `beforeEnd` runs after git exited and before the response ends. */
function pipeProcess(
  args: string[],
  req: Request,
  res: Response,
  input: NodeJS.ReadableStream | null,
  beforeEnd?: (exitCode: number | null) => Promise<void>,
): Promise<number | null> {
  const protocol = gitProtocol(req);
  const child = spawnGit(args, { env: protocol ? { GIT_PROTOCOL: protocol } : {}, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr!.resume();
  child.stdin!.on('error', () => undefined);
  if (input) {
    input.on('error', () => child.kill('SIGKILL'));
    input.pipe(child.stdin!);
  } else {
    child.stdin!.end();
  }
  child.stdout!.pipe(res, { end: false });
  res.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      // The client sees the end of the answer only once the database knows what the push changed.
      (beforeEnd ? beforeEnd(code) : Promise.resolve()).catch(() => undefined).finally(() => {
        res.end();
        resolve(code);
      });
    };
    child.on('error', () => finish(null));
    child.on('close', (code) => finish(code));
  });
}

/** GET info/refs?service=git-<service>: the reference advertisement. */
export async function advertiseRefs(req: Request, res: Response, dir: string, service: GitService): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', `application/x-git-${service}-advertisement`);
  noCache(res);
  // Protocol v2 clients get the capability advertisement without the service banner, as from http-backend.
  if (!gitProtocol(req)?.includes('version=2')) res.write(`${pktLine(`# service=git-${service}\n`)}0000`);
  await pipeProcess([service, '--stateless-rpc', '--advertise-refs', dir], req, res, null);
}

/** POST git-<service>: one round of the protocol; the request body may be gzip-compressed. */
export async function serviceRpc(
  req: Request,
  res: Response,
  dir: string,
  service: GitService,
  afterSuccess?: () => Promise<void>,
): Promise<number | null> {
  res.status(200);
  res.setHeader('Content-Type', `application/x-git-${service}-result`);
  noCache(res);
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  const input = encoding === 'gzip' || encoding === 'x-gzip' ? req.pipe(zlib.createGunzip()) : req;
  return pipeProcess([service, '--stateless-rpc', dir], req, res, input, async (code) => {
    if (code === 0 && afterSuccess) await afterSuccess();
  });
}
