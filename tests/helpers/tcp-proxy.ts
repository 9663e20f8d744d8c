// One address in front of several servers, as a load balancer: each TCP connection goes to the backend the test
// chooses (one of them, or each in turn), and the proxy counts where connections went.
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Where new connections go: one backend's index, or 'alternate' (each in turn). */
  route: number | 'alternate';
  /** Backend ports, settable after the proxy started (the backends need its address first). */
  backends: number[];
  /** Connections sent to each backend so far. */
  readonly sent: number[];
  close(): Promise<void>;
}

export async function startTcpProxy(): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let turn = 0;
  const server = net.createServer((client) => {
    const index = proxy.route === 'alternate' ? turn++ % proxy.backends.length : proxy.route;
    proxy.sent[index] = (proxy.sent[index] ?? 0) + 1;
    const upstream = net.connect(proxy.backends[index], '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: TcpProxy = {
    port: (server.address() as net.AddressInfo).port,
    route: 0,
    backends: [],
    sent: [],
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}
