// A TCP port free on loopback now, for a server a test starts as its own process. It is drawn below the kernel's
// ephemeral range (32768 and up on Linux): the servers other tests open on port 0, and outgoing connections, take
// their ports from that range, so none of them can take this one between its choice and its use.
import net from 'node:net';

const LOWEST = 20_000;
const COUNT = 12_000;

function bindable(port: number): Promise<boolean> {
  const server = net.createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOWEST + Math.floor(Math.random() * COUNT);
    if (await bindable(port)) return port;
  }
}
