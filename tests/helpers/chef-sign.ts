// Signs requests as knife does (mixlib-authentication's SignedHeaderAuth, protocols 1.0 to 1.3), written from
// Chef's documentation independently of the server's checker, so a test proves the two agree.
import { createHash, createSign, type KeyObject, privateEncrypt, constants } from 'node:crypto';

export type ChefProtocol = '1.0' | '1.1' | '1.2' | '1.3';

export interface ChefSigning {
  method: string;
  /** The request path the client signs (no query). */
  path: string;
  body?: Buffer | string;
  userId: string;
  key: KeyObject;
  protocol?: ChefProtocol;
  /** Defaults to now. */
  time?: Date;
  serverApiVersion?: string;
}

const digest = (algorithm: string, data: Buffer | string) => createHash(algorithm).update(data).digest('base64');

/** The X-Ops-* headers knife sends with a request. */
export function chefHeaders(signing: ChefSigning): Record<string, string> {
  const protocol = signing.protocol ?? '1.3';
  const algorithm = protocol === '1.3' ? 'sha256' : 'sha1';
  const timestamp = (signing.time ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const contentHash = digest(algorithm, signing.body ?? '');
  const path = signing.path.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
  const serverApiVersion = signing.serverApiVersion ?? '1';
  const text =
    protocol === '1.3'
      ? [
          `Method:${signing.method.toUpperCase()}`,
          `Path:${path}`,
          `X-Ops-Content-Hash:${contentHash}`,
          `X-Ops-Sign:version=1.3`,
          `X-Ops-Timestamp:${timestamp}`,
          `X-Ops-UserId:${signing.userId}`,
          `X-Ops-Server-API-Version:${serverApiVersion}`,
        ].join('\n')
      : [
          `Method:${signing.method.toUpperCase()}`,
          `Hashed Path:${digest('sha1', path)}`,
          `X-Ops-Content-Hash:${contentHash}`,
          `X-Ops-Timestamp:${timestamp}`,
          `X-Ops-UserId:${protocol === '1.0' ? signing.userId : digest('sha1', signing.userId)}`,
        ].join('\n');
  let signature: Buffer;
  if (protocol === '1.0' || protocol === '1.1') {
    signature = privateEncrypt({ key: signing.key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(text));
  } else {
    signature = createSign(algorithm).update(text).sign(signing.key);
  }
  const headers: Record<string, string> = {
    'X-Ops-Sign': `algorithm=${algorithm};version=${protocol};`,
    'X-Ops-Userid': signing.userId,
    'X-Ops-Timestamp': timestamp,
    'X-Ops-Content-Hash': contentHash,
    'X-Chef-Version': '18.4.12',
  };
  if (protocol === '1.3') headers['X-Ops-Server-API-Version'] = serverApiVersion;
  const lines = signature.toString('base64').match(/.{1,60}/g) ?? [];
  lines.forEach((line, index) => (headers[`X-Ops-Authorization-${index + 1}`] = line));
  return headers;
}

/** knife supermarket share's body: the tarball part, then the cookbook's category as JSON. */
export function shareBody(tarball: Buffer, fileName: string): { body: Buffer; contentType: string } {
  const boundary = `----RubyMultipartClient${Math.random().toString().slice(2)}ZZZZZ`;
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="tarball"; filename="${fileName}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    tarball,
    Buffer.from(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="cookbook"\r\n\r\n{"category":"Other"}\r\n--${boundary}--\r\n`,
    ),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
