// Sends one webhook request to an address [webhook] ALLOWED_HOST_LIST permits (net/allowed-address.ts), pinned
// to the address checked. Redirects are not followed.
import http from 'node:http';
import https from 'node:https';
import type { HostAllowList } from '../domain/host-allow-list.ts';
import { allowedAddress, pinnedLookup, type ResolvedAddress } from '../infra/net/allowed-address.ts';
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

async function checkedAddress(host: string, allowList: HostAllowList): Promise<ResolvedAddress> {
  let allowed: ResolvedAddress | null;
  try {
    allowed = await allowedAddress(host, allowList);
  } catch (error) {
    throw new HookSendError('network', `cannot resolve ${host}: ${(error as Error).message}`);
  }
  if (!allowed) {
    throw new HookSendError(
      'refused',
      `webhook can only call allowed HTTP servers (check your [webhook] ALLOWED_HOST_LIST setting), deny '${host}'`,
    );
  }
  return allowed;
}

export async function sendHookRequest(request: HookRequest, options: HookClientOptions): Promise<HookResponse> {
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new HookSendError('timeout', `no answer within ${options.timeoutMs} ms`)),
      options.timeoutMs,
    );
  });
  let outgoing: http.ClientRequest | undefined;
  try {
    const target = await Promise.race([checkedAddress(host, options.allowList), deadline]);
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
          lookup: pinnedLookup(target),
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
              headers: Object.fromEntries(
                Object.entries(response.headers).map(([name, value]) => [
                  name,
                  Array.isArray(value) ? value.join(',') : String(value ?? ''),
                ]),
              ),
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
