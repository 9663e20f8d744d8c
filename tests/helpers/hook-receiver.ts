// A webhook receiver on loopback that records every request (headers and exact body bytes) and answers with a
// status chosen per request, or holds the request open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedHook {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The status answered, or null while held. */
  answered: number | null;
  /** The sender's port, which names the sending process while the connection is open. */
  remotePort: number;
}

export interface HookReceiver {
  readonly url: string;
  readonly received: ReceivedHook[];
  /** Chooses each answer: a status, or 'hold' to keep the request open. Default 200. */
  respond: (hook: ReceivedHook) => number | 'hold';
  /** Requests to a path, in arrival order. */
  at(path: string): ReceivedHook[];
  /** Answers every request held so far with `status`. */
  release(status: number): void;
  /** Waits until `predicate` holds over what was received. */
  until(predicate: (received: ReceivedHook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startHookReceiver(): Promise<HookReceiver> {
  const held = new Map<http.ServerResponse, ReceivedHook>();
  const answer = (res: http.ServerResponse, hook: ReceivedHook, status: number) => {
    hook.answered = status;
    res.writeHead(status, { 'Content-Type': 'text/plain', 'X-Receiver': 'test' }).end(`status ${status}`);
  };
  const receiver = {
    received: [] as ReceivedHook[],
    respond: (() => 200) as HookReceiver['respond'],
  } as HookReceiver & { url: string };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const hook: ReceivedHook = {
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        answered: null,
        remotePort: req.socket.remotePort ?? 0,
      };
      receiver.received.push(hook);
      const status = receiver.respond(hook);
      if (status === 'hold') {
        held.set(res, hook);
        return;
      }
      answer(res, hook, status);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.at = (path) => receiver.received.filter((hook) => hook.path === path);
  receiver.until = async (predicate, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(receiver.received)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  receiver.release = (status) => {
    for (const [res, hook] of held) answer(res, hook, status);
    held.clear();
  };
  receiver.close = async () => {
    for (const res of held.keys()) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
