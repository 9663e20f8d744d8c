// Which process holds a TCP connection on this machine (Linux /proc): a receiver tells from a request's source port
// which of several local processes sent it.
import fs from 'node:fs';

/** The socket inode of the connection from local port `from` to local port `to`, or null. */
function connectionInode(from: number, to: number): string | null {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      if (port(fields[1]) === from && port(fields[2]) === to) return fields[9];
    }
  }
  return null;
}

/** Of `pids`, the one holding the connection from local port `from` to local port `to`; null when none does. */
export function pidOfConnection(from: number, to: number, pids: readonly number[]): number | null {
  const inode = connectionInode(from, to);
  if (!inode) return null;
  const socket = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === socket) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return null;
}
