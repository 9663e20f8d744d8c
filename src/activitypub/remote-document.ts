// GETs an ActivityPub document from another server under the migration address rule: unless
// [migrations] ALLOW_LOCALNETWORKS, a host that resolves to a loopback or private address is refused. The check
// runs inside the connection's own DNS lookup, so the address connected to is the address checked.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { isLocalNetworkAddress } from '../domain/network-address.ts';

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const MAX_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 3;

export interface RemoteFetchOptions {
  readonly allowLocalNetworks: boolean;
  readonly timeoutMs: number;
}

export class RemoteDocumentError extends Error {}

function checkedLookup(allowLocalNetworks: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      const list = addresses as unknown as dns.LookupAddress[];
      if (error) return (callback as (e: Error) => void)(error);
      if (list.length === 0) return (callback as (e: Error) => void)(new RemoteDocumentError(`${hostname} does not resolve`));
      if (!allowLocalNetworks && list.some((entry) => isLocalNetworkAddress(entry.address))) {
        return (callback as (e: Error) => void)(new RemoteDocumentError(`${hostname} is on a local network`));
      }
      if (options.all) return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      return callback(null, list[0].address, list[0].family);
    });
  };
}

function getOnce(url: URL, options: RemoteFetchOptions): Promise<{ status: number; location?: string; body: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An address literal is connected to without a lookup, so it is checked here.
  if (net.isIP(host) && !options.allowLocalNetworks && isLocalNetworkAddress(host)) {
    return Promise.reject(new RemoteDocumentError(`${host} is on a local network`));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      { headers: { accept: ACCEPT }, lookup: checkedLookup(options.allowLocalNetworks), timeout: options.timeoutMs },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_BYTES) request.destroy(new RemoteDocumentError('the document is too large'));
          else chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new RemoteDocumentError('the server did not answer in time')));
    request.on('error', reject);
  });
}

/** The JSON document at an http(s) URL, following a few redirects (each checked like the first address). */
export async function fetchRemoteDocument(address: string, options: RemoteFetchOptions): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new RemoteDocumentError(`${address} is not a URL`);
  }
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RemoteDocumentError(`${url.protocol} URLs are not fetched`);
    url.hash = '';
    const response = await getOnce(url, options);
    if (response.status >= 300 && response.status < 400 && response.location && redirects < MAX_REDIRECTS) {
      url = new URL(response.location, url);
      continue;
    }
    if (response.status !== 200) throw new RemoteDocumentError(`${url} answered ${response.status}`);
    try {
      return JSON.parse(response.body);
    } catch {
      throw new RemoteDocumentError(`${url} did not answer with JSON`);
    }
  }
}
