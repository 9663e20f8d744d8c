// Sends one webhook request to an address the allow list permits: the host is resolved here, each address is
// checked, and the socket is opened to the checked address itself (the resolver given to node:http answers only
// that address), so a second DNS answer cannot move the request elsewhere. Redirects are not followed.
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { type HostAllowList, isHostAllowed } from '../domain/host-allow-list.ts';
import type { HookRequest } from './request.ts';

export interface HookClientOptions {
  allowList: HostAllowList;
  timeoutMs: number;
  skipTlsVerify: boolean;
  /** Response bytes kept for the history; the rest is not read. */
  maxResponseBytes: number;
}

export interface HookResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** `refused`: the address is not allowed (nothing was connected to); `network`: connecting or reading failed. */
export class HookSendError extends Error {
  constructor(
    readonly kind: 'refused' | 'network' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

function pinnedLookup(address: string, family: number): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

async function allowedAddress(host: string, allowList: HostAllowList): Promise<{ address: string; family: number }> {
  let candidates: { address: string; family: number }[];
  if (net.isIP(host)) candidates = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      candidates = await dns.lookup(host, { all: true, verbatim: true });
    } catch (error) {
      throw new HookSendError('network', `cannot resolve ${host}: ${(error as Error).message}`);
    }
  }
  const allowed = candidates.find((candidate) => isHostAllowed(allowList, host, candidate.address));
  if (!allowed) {
    throw new HookSendError('refused', `webhook can only call allowed HTTP servers (check your [webhook] ALLOWED_HOST_LIST setting), deny '${host}'`);
  }
  return allowed;
}

export async function sendHookRequest(request: HookRequest, options: HookClientOptions): Promise<HookResponse> {
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HookSendError('timeout', `no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
  });
  let outgoing: http.ClientRequest | undefined;
  try {
    const target = await Promise.race([allowedAddress(host, options.allowList), deadline]);
    const exchange = new Promise<HookResponse>((resolve, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      outgoing = transport.request(
        {
          protocol: url.protocol,
          hostname: host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: { ...request.headers, 'Content-Length': String(request.body.length) },
          lookup: pinnedLookup(target.address, target.family),
          agent: false,
          rejectUnauthorized: !options.skipTlsVerify,
          ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          const finish = () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value ?? '')])),
              body: Buffer.concat(chunks).toString('utf8'),
            });
          response.on('data', (chunk: Buffer) => {
            if (kept >= options.maxResponseBytes) return;
            chunks.push(chunk.subarray(0, options.maxResponseBytes - kept));
            kept += chunk.length;
            if (kept >= options.maxResponseBytes) {
              finish();
              response.destroy();
            }
          });
          response.on('end', finish);
          response.on('error', (error) => reject(new HookSendError('network', error.message)));
        },
      );
      outgoing.on('error', (error) => reject(new HookSendError('network', error.message)));
      outgoing.end(request.body);
    });
    return await Promise.race([exchange, deadline]);
  } finally {
    clearTimeout(timer);
    outgoing?.destroy();
  }
}
