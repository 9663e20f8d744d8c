// git smart HTTP over `git upload-pack|receive-pack --stateless-rpc`, as git http-backend serves it.
import { Readable, Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { Request, Response } from 'express';
import { QuotaExceededError } from '../../domain/errors.ts';
import type { ByteBudget } from '../storage/blob-store.ts';
import { pktLine } from './pkt-line.ts';
import { PushPackMeter } from './push-pack-meter.ts';
import { PushRefusal } from './push-refusal.ts';
import { QUOTA_EXCEEDED } from './quota-hook.ts';
import { spawnGit } from './run.ts';
import { MAX_ANSWER_BYTES, refsAnswer } from './advertisement-cache.ts';

export type GitService = 'upload-pack' | 'receive-pack';

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

const STREAM_BUFFER_BYTES = 1024 * 1024;

/** A failure of the request body that git should report to its user (an `ERR` packet line). */
class RequestBodyError extends Error {}

/**
 * What happens to a body past the bound: `fail` stops git and reports an error line; `truncate` ends git's input
 * at the bound, for a push, which answers in side-band packets where an ERR line would not be read: git then
 * reports in its own protocol (a pack over receive.maxInputSize says so).
 */
type OversizedBody = 'fail' | 'truncate';

/**
 * The request body as git reads it: inflated when gzip-compressed (git compresses upload-pack requests), and
 * bounded at `maxBytes` (0: no bound), so that neither a long nor a compressed body runs unbounded.
 */
function requestInput(
  req: Request,
  res: Response,
  maxBytes: number,
  oversized: OversizedBody,
  meter?: PushPackMeter,
): Readable {
  const bound = maxBytes > 0 ? maxBytes : Infinity;
  let seen = 0;
  const limited = new Transform({
    // Large buffers on both sides: a 100 MiB pack then crosses in fewer, larger writes to git's stdin.
    highWaterMark: STREAM_BUFFER_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      if (seen > bound) return done();
      seen += chunk.length;
      if (seen <= bound) {
        const admitted = meter?.admit(chunk);
        if (!admitted) return done(null, chunk);
        // Over quota: git is stopped before it stores anything, and the client hears why in git's own terms.
        return void admitted.then(
          () => done(null, chunk),
          (error: unknown) => {
            seen = Infinity;
            if (!res.headersSent) res.setHeader('Connection', 'close');
            const refused = error instanceof QuotaExceededError;
            done(refused ? new PushRefusal(QUOTA_EXCEEDED, meter!.refs, meter!.sideBand) : (error as Error));
          },
        );
      }
      // The rest of the body is not read, so the connection cannot carry another request.
      if (!res.headersSent) res.setHeader('Connection', 'close');
      if (oversized === 'fail') return done(new RequestBodyError(`request too large: more than ${maxBytes} bytes`));
      source.unpipe(limited);
      this.push(chunk.subarray(0, chunk.length - (seen - bound)));
      this.push(null);
      done();
    },
  });
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let source: Readable = req;
  if (encoding === 'gzip' || encoding === 'x-gzip') {
    source = req.pipe(zlib.createGunzip());
    source.on('error', () => limited.destroy(new RequestBodyError('request body does not decode as gzip')));
  } else if (encoding !== 'identity' && encoding !== '') {
    process.nextTick(() => limited.destroy(new RequestBodyError(`unsupported content encoding "${encoding}"`)));
    return limited;
  }
  return source.pipe(limited);
}

/**
 * Streams git's output to the response; `beforeEnd` runs after git exited and before the response ends. `captured`
 * is given the whole output of a successful run, when it is small enough to keep.
 */
function pipeProcess(
  args: string[],
  req: Request,
  res: Response,
  input: Readable | null,
  beforeEnd?: (exitCode: number | null) => Promise<void>,
  env: NodeJS.ProcessEnv = {},
  captured?: (output: Buffer) => void,
): Promise<number | null> {
  const protocol = gitProtocol(req);
  const child = spawnGit(args, {
    env: protocol ? { ...env, GIT_PROTOCOL: protocol } : env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr!.resume();
  child.stdin!.on('error', () => undefined);
  let inputFailure: Error | null = null;
  if (input) {
    input.on('error', (error) => {
      inputFailure = error;
      child.stdout!.unpipe(res);
      child.kill('SIGKILL');
    });
    input.pipe(child.stdin!);
  } else {
    child.stdin!.end();
  }
  // Captured up to what an answer kept may be: a larger one is only streamed.
  let output: Buffer[] | null = captured ? [] : null;
  let outputBytes = 0;
  if (output)
    child.stdout!.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > MAX_ANSWER_BYTES) output = null;
      output?.push(chunk);
    });
  child.stdout!.pipe(res, { end: false });
  res.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => {
    let settled = false;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      if (inputFailure) {
        if (inputFailure instanceof PushRefusal) res.write(inputFailure.body());
        else if (!res.headersSent && inputFailure instanceof RequestBodyError) {
          res.write(pktLine(`ERR ${inputFailure.message}\n`));
        }
        res.end();
        return resolve(null);
      }
      if (captured && output && code === 0) captured(Buffer.concat(output));
      // The client sees the end of the answer only once the database knows what the push changed.
      (beforeEnd ? beforeEnd(code) : Promise.resolve())
        .catch(() => undefined)
        .finally(() => {
          res.end();
          resolve(code);
        });
    };
    child.on('error', () => finish(null));
    child.on('close', (code) => finish(code));
  });
}

function startResult(res: Response, service: GitService): void {
  res.status(200);
  res.setHeader('Content-Type', `application/x-git-${service}-result`);
  noCache(res);
}

/** GET info/refs?service=git-<service>: the reference advertisement. */
export async function advertiseRefs(req: Request, res: Response, dir: string, service: GitService): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', `application/x-git-${service}-advertisement`);
  noCache(res);
  // Protocol v2 clients get the capability advertisement without the service banner, as from http-backend.
  const protocol = gitProtocol(req);
  if (!protocol?.includes('version=2')) res.write(`${pktLine(`# service=git-${service}\n`)}0000`);
  // receive-pack's advertisement also depends on the hooks and quota of the moment: only upload-pack's is kept.
  const kept = service === 'upload-pack' ? refsAnswer(dir, `advertisement\0${protocol ?? ''}`) : null;
  if (kept?.known) return void res.end(kept.known);
  await pipeProcess([service, '--stateless-rpc', '--advertise-refs', dir], req, res, null, undefined, {}, kept?.keep);
}

export interface RpcLimits {
  /** Largest request body git reads, after inflation; 0 for no bound. */
  readonly maxRequestBytes: number;
  /** receive.maxInputSize: the largest pack a push may send; 0 for no bound. */
  readonly maxPackBytes?: number;
  /** core.hooksPath for a push: hooks that may refuse its ref updates (src/git/quota-hook.ts). */
  readonly hooksPath?: string;
  /** For a push: admits the pack as it arrives (a quota hold); a refusal stops the push. */
  readonly packBudget?: ByteBudget;
  /** Environment for git and its hooks (what protection-hook.ts reads). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Bodies read whole before git starts, to tell a round worth keeping: git sends short ones uncompressed. */
const MAX_SHORT_ROUND_BYTES = 8 * 1024;
/**
 * The v2 commands whose answer the refs and the request decide: `ls-refs`, and a `fetch`, whose objects are named by
 * id (content-addressed) and chosen among what the refs reach. CI fetching the same commit again and again is then
 * answered without starting upload-pack and pack-objects (as Gitaly's pack-objects cache does).
 */
const KEPT_COMMANDS = new Set(['ls-refs', 'fetch']);

/** The command a v2 round's first packet line names (git ends it with a newline or not). */
function v2Command(body: Buffer): string | null {
  const length = Number.parseInt(body.toString('latin1', 0, 4), 16);
  if (!(length > 4 && length <= body.length)) return null;
  const line = /^command=([a-z-]+)\n?$/.exec(body.toString('latin1', 4, length));
  return line ? line[1] : null;
}

/** The whole body of a short, uncompressed protocol v2 upload-pack round, or null when it is not one. */
async function shortV2Body(req: Request, maxRequestBytes: number): Promise<Buffer | null> {
  const length = Number(req.headers['content-length']);
  const bound = maxRequestBytes > 0 ? Math.min(MAX_SHORT_ROUND_BYTES, maxRequestBytes) : MAX_SHORT_ROUND_BYTES;
  const encoding = String(req.headers['content-encoding'] ?? '').trim();
  if (!gitProtocol(req)?.includes('version=2') || encoding !== '' || !(length > 0 && length <= bound)) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A protocol v2 upload-pack round whose body was read whole: an `ls-refs` or a small `fetch` is answered from memory
 * while the refs stay the same (advertisement-cache.ts); anything else goes to git as it came.
 */
async function shortV2Round(
  req: Request,
  res: Response,
  dir: string,
  body: Buffer,
  beforeEnd: (exitCode: number | null) => Promise<void>,
  env?: NodeJS.ProcessEnv,
): Promise<number | null> {
  const keepable = KEPT_COMMANDS.has(v2Command(body) ?? '');
  const kept = keepable ? refsAnswer(dir, `v2\0${gitProtocol(req)}\0${body.toString('latin1')}`) : null;
  if (kept?.known) {
    await beforeEnd(0);
    res.end(kept.known);
    return 0;
  }
  const args = ['upload-pack', '--stateless-rpc', dir];
  return pipeProcess(args, req, res, Readable.from([body]), beforeEnd, env, kept?.keep);
}

/** POST git-<service>: one round of the protocol; the request body may be gzip-compressed. */
export async function serviceRpc(
  req: Request,
  res: Response,
  dir: string,
  service: GitService,
  limits: RpcLimits,
  afterSuccess?: () => Promise<void>,
): Promise<number | null> {
  startResult(res, service);
  const beforeEnd = async (code: number | null) => {
    if (code === 0 && afterSuccess) await afterSuccess();
  };
  if (service === 'upload-pack') {
    const body = await shortV2Body(req, limits.maxRequestBytes);
    if (body) return shortV2Round(req, res, dir, body, beforeEnd, limits.env);
  }
  // git itself refuses a pack over receive.maxInputSize, with a message the pushing client shows.
  const config =
    service === 'receive-pack' && limits.maxPackBytes ? ['-c', `receive.maxInputSize=${limits.maxPackBytes}`] : [];
  if (service === 'receive-pack' && limits.hooksPath) config.push('-c', `core.hooksPath=${limits.hooksPath}`);
  const meter = service === 'receive-pack' && limits.packBudget ? new PushPackMeter(limits.packBudget) : undefined;
  const input = requestInput(req, res, limits.maxRequestBytes, service === 'receive-pack' ? 'truncate' : 'fail', meter);
  return pipeProcess([...config, service, '--stateless-rpc', dir], req, res, input, beforeEnd, limits.env);
}

/** Answers a protocol round with an error the git client shows its user, without running git. */
export function refuseRpc(res: Response, service: GitService, message: string): void {
  startResult(res, service);
  res.end(pktLine(`ERR ${message}\n`));
}
