// The resident set of the servers a bench starts, read from /proc (Linux).
import fs from 'node:fs';

/** The process's resident set in MiB, or NaN where /proc does not show it (gone, or not Linux). */
export function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** Reads the process's RSS every `everyMs` until stopped; `peak()` is the highest reading (0 before the first). */
export function sampleRss(pid: number, everyMs = 50): { peak(): number; stop(): void } {
  let peak = 0;
  const read = () => {
    const rss = rssMiB(pid);
    if (rss > peak) peak = rss;
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    peak: () => peak,
    stop: () => {
      read();
      clearInterval(timer);
    },
  };
}
