// The listening server's limits on clients, over raw sockets: an oversized header block answers 431, and a
// client that dribbles its headers or its body past [server] READ_HEADER_TIMEOUT or READ_TIMEOUT is answered
// 408 and disconnected, while other clients are served. The waits are generous bounds, not measurements.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpServer, httpServerOptions } from '../../src/http/http-server.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const GENEROUS_MS = 20_000;

let t: TestApp;
let server: Server;
let port: number;

beforeAll(async () => {
  t = await startTestApp({
    ANVIL__server__MAX_HEADER_SIZE: '8k',
    ANVIL__server__READ_HEADER_TIMEOUT: '1s',
    ANVIL__server__READ_TIMEOUT: '2s',
  });
  server = createHttpServer(t.app, t.context.settings.server).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface Exchange {
  /** Everything the server sent. */
  received: () => string;
  /** Resolves when the server closed the connection; rejects after `GENEROUS_MS`. */
  closed: Promise<void>;
  socket: net.Socket;
}

function connect(): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', () => undefined); // a reset after the answer is a close too
    const closed = new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () =>
          fail(
            new Error(`the server kept the connection open for ${GENEROUS_MS} ms; received: ${JSON.stringify(text)}`),
          ),
        GENEROUS_MS,
      );
      socket.once('close', () => {
        clearTimeout(timer);
        done();
      });
    });
    socket.once('connect', () => resolve({ received: () => text, closed, socket }));
    socket.once('error', reject);
  });
}

/** Writes `bytes` one at a time, every `everyMs`, until the connection closes or the bytes run out. */
async function dribble(exchange: Exchange, bytes: string, everyMs = 100): Promise<void> {
  let open = true;
  void exchange.closed.finally(() => {
    open = false;
  });
  for (const byte of bytes) {
    if (!open || exchange.socket.destroyed) return;
    exchange.socket.write(byte);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

async function simpleGet(extraHeaders = ''): Promise<string> {
  const exchange = await connect();
  exchange.socket.write(`GET /api/v1/version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extraHeaders}\r\n`);
  await exchange.closed;
  return exchange.received();
}

describe('header size', () => {
  it('answers 431 to a header block over [server] MAX_HEADER_SIZE and serves one under it', async () => {
    expect(await simpleGet(`X-Padding: ${'a'.repeat(9 * 1024)}\r\n`)).toMatch(/^HTTP\/1\.1 431 /);
    expect(await simpleGet(`X-Padding: ${'a'.repeat(6 * 1024)}\r\n`)).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers are not complete within READ_HEADER_TIMEOUT, and keeps serving others', async () => {
    const slow = await connect();
    slow.socket.write('GET /api/v1/version HTTP/1.1\r\nHost: localhost\r\n');
    // Far more bytes than the timeout lets through, none of them ending the header block.
    void dribble(slow, `X-Slow: ${'s'.repeat(1000)}`);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await simpleGet()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('closes a connection whose body is not complete within READ_TIMEOUT', async () => {
    const body = JSON.stringify({ text: 'x'.repeat(900), mode: 'markdown' });
    const slow = await connect();
    slow.socket.write(
      `POST /api/v1/markdown HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    void dribble(slow, body);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await simpleGet()).toMatch(/^HTTP\/1\.1 200 /);
  });
});

describe('server options', () => {
  it('bounds the headers by the request timeout when that is shorter, and checks often enough for the shortest', () => {
    expect(httpServerOptions({ MAX_HEADER_SIZE: 16384, READ_HEADER_TIMEOUT: 60_000, READ_TIMEOUT: 300_000 })).toEqual({
      maxHeaderSize: 16384,
      headersTimeout: 60_000,
      requestTimeout: 300_000,
      connectionsCheckingInterval: 15_000,
    });
    expect(
      httpServerOptions({ MAX_HEADER_SIZE: 8192, READ_HEADER_TIMEOUT: 60_000, READ_TIMEOUT: 2_000 }),
    ).toMatchObject({ headersTimeout: 2_000, connectionsCheckingInterval: 500 });
    expect(httpServerOptions({ MAX_HEADER_SIZE: 8192, READ_HEADER_TIMEOUT: 0, READ_TIMEOUT: 0 })).toMatchObject({
      headersTimeout: 0,
      requestTimeout: 0,
      connectionsCheckingInterval: 30_000,
    });
  });
});
