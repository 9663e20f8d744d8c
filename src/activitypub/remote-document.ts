// GETs an ActivityPub document from another server: only at addresses [federation] ALLOWED_HOST_LIST permits
// (checked per redirect, the socket pinned to the address checked), within one deadline for the whole fetch,
// at most MAX_SIZE bytes, and abandoned when the caller's signal fires (its client went away). What went wrong
// past the URL's own shape is not told to the caller: a refused address, a closed port, a status or a timeout
// would otherwise let anyone map what the server can reach.
import http from 'node:http';
import https from 'node:https';
import type { HostAllowList } from '../domain/host-allow-list.ts';
import { allowedAddress, pinnedLookup } from '../infra/net/allowed-address.ts';

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const MAX_REDIRECTS = 3;

export interface RemoteFetchOptions {
  readonly allowList: HostAllowList;
  /** For the whole fetch, redirects included. */
  readonly timeoutMs: number;
  readonly maxBytes: number;
}

/** The document cannot be had; `message` is safe to show, `reason` is for the log. */
export class RemoteDocumentError extends Error {
  constructor(
    message: string,
    readonly reason = message,
  ) {
    super(message);
  }
}

export const UNREACHABLE_DOCUMENT = 'no usable answer';

/** The document cannot be had or used, for a reason only the log hears. */
export const unreachable = (reason: string) => new RemoteDocumentError(UNREACHABLE_DOCUMENT, reason);

/** `work`, or its rejection once `signal` fires: a DNS lookup cannot be cancelled, only left behind. */
function until<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const abandon = () => reject(signal.reason);
    signal.addEventListener('abort', abandon, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abandon));
  });
}

interface RawAnswer {
  status: number;
  location?: string;
  body: string;
}

function getOnce(url: URL, options: RemoteFetchOptions, signal: AbortSignal): Promise<RawAnswer> {
  return until(allowedAddress(url.hostname, options.allowList), signal).then((target) => {
    if (!target) throw unreachable(`${url.hostname} is not in [federation] ALLOWED_HOST_LIST`);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const requestOptions = { headers: { accept: ACCEPT }, lookup: pinnedLookup(target), agent: false, signal };
      const request = client.get(url, requestOptions, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= options.maxBytes) chunks.push(chunk);
          else request.destroy(unreachable(`the document is larger than ${options.maxBytes} bytes`));
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            location: response.headers.location,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      });
      request.on('error', reject);
    });
  });
}

async function fetchWithin(start: URL, options: RemoteFetchOptions, signal: AbortSignal): Promise<unknown> {
  let url = start;
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new RemoteDocumentError(`${url.protocol} URLs are not fetched`);
    url.hash = '';
    const response = await getOnce(url, options, signal);
    if (response.status >= 300 && response.status < 400 && response.location && redirects < MAX_REDIRECTS) {
      url = new URL(response.location, url);
      continue;
    }
    if (response.status !== 200) throw unreachable(`${url} answered ${response.status}`);
    try {
      return JSON.parse(response.body);
    } catch {
      throw unreachable(`${url} did not answer with JSON`);
    }
  }
}

/** The JSON document at an http(s) URL, following a few redirects; `signal` abandons it. */
export async function fetchRemoteDocument(
  address: string,
  options: RemoteFetchOptions,
  signal?: AbortSignal,
): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new RemoteDocumentError(`${address} is not a URL`);
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    return await fetchWithin(url, options, signal ? AbortSignal.any([deadline, signal]) : deadline);
  } catch (error) {
    if (error instanceof RemoteDocumentError) throw error;
    if (deadline.aborted) throw unreachable(`no answer within ${options.timeoutMs} ms`);
    throw unreachable((error as Error).message);
  }
}
