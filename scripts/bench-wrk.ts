// wrk (Debian's `wrk`) as the load generator for answers sent compressed. autocannon appends every body chunk to a
// string, decoding it as UTF-8, and decoding compressed bytes that way is slow: a bare node server answering 66 KiB
// of gzip from memory measured 469 req/s through autocannon. wrk reads bodies without looking at them, so the
// server stays the limit. One thread, as autocannon is one.
import { execFile, execFileSync } from 'node:child_process';

export interface LoadRun {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

let installed: boolean | undefined;
export function wrkInstalled(): boolean {
  if (installed === undefined) {
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      installed = true;
    } catch (error) {
      // wrk --version exits 1 after printing its version.
      installed = (error as NodeJS.ErrnoException).code !== 'ENOENT';
    }
  }
  return installed;
}

/** Whether the request asks for a compressed answer, which wrk measures and autocannon does not. */
export function asksCompressed(headers: Record<string, string>): boolean {
  const accept = Object.entries(headers).find(([name]) => name.toLowerCase() === 'accept-encoding')?.[1] ?? '';
  return /\b(gzip|deflate|br|zstd)\b/.test(accept);
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function milliseconds(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  return match ? Number(match[1]) * UNIT_MS[match[2]] : NaN;
}

export function wrk(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections: number,
): Promise<LoadRun> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    execFile('wrk', args, (error, stdout) => {
      if (error) return reject(error);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
      if (!Number.isFinite(rps)) return reject(new Error(`wrk printed no rate:\n${stdout}`));
      resolve({
        rps,
        p50: milliseconds(/^\s+50%\s+(\S+)/m.exec(stdout)?.[1]),
        p99: milliseconds(/^\s+99%\s+(\S+)/m.exec(stdout)?.[1]),
        non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
      });
    });
  });
}
