// The client's address, as [security] REVERSE_PROXY_TRUSTED_PROXIES and REVERSE_PROXY_LIMIT allow (Forgejo's
// keys and defaults): X-Forwarded-For is believed for at most LIMIT hops, each from a trusted peer, and
// X-Real-IP from a trusted peer that sent no X-Forwarded-For. Everything else sees the peer's own address,
// so a client cannot choose the address the sign-in throttle and the logs know it by.
import type { Express, RequestHandler } from 'express';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';

interface ProxySettings {
  readonly REVERSE_PROXY_TRUSTED_PROXIES: readonly string[];
  readonly REVERSE_PROXY_LIMIT: number;
}

export function trustedProxy(settings: ProxySettings): (address: string, hop: number) => boolean {
  const list = settings.REVERSE_PROXY_TRUSTED_PROXIES;
  const trusted = list.includes('*') ? () => true : proxyaddr.compile([...list]);
  return (address, hop) => hop < settings.REVERSE_PROXY_LIMIT && trusted(address, hop);
}

/** Makes req.ip the client's address; the throttle, the access log and the rest read it from there. */
export function clientAddress(server: Express, settings: ProxySettings): RequestHandler {
  const trust = trustedProxy(settings);
  server.set('trust proxy', trust);
  return (req, _res, next) => {
    const realIp = req.headers['x-real-ip'];
    const peer = req.socket.remoteAddress ?? '';
    if (
      !req.headers['x-forwarded-for'] &&
      typeof realIp === 'string' &&
      ipaddr.isValid(realIp.trim()) &&
      trust(peer, 0)
    )
      Object.defineProperty(req, 'ip', { value: realIp.trim(), configurable: true });
    next();
  };
}
