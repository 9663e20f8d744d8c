import { gunzipSync } from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { indexDocument, sendIndexDocument, type SendOptions } from '../../src/packages/core/index-document.ts';

const MODIFIED = new Date('2026-01-02T03:04:05Z');
// Not ASCII: the Content-Length is the bytes', not the characters'.
const document = indexDocument(
  JSON.stringify({ name: 'café', versions: Array.from({ length: 1000 }, (_, i) => i) }),
  MODIFIED,
);

function server(options?: SendOptions, type = 'application/json') {
  const app = express();
  app.all('/doc', (req, res) => sendIndexDocument(req, res, document, type, options));
  return app;
}

describe('sendIndexDocument', () => {
  it('writes the kept UTF-8 bytes whole, with their length, type and entity tag', async () => {
    const res = await request(server()).get('/doc').set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.text).toBe(document.body);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(document.body)));
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toBe(document.etag);
    expect(res.headers['last-modified']).toBe(MODIFIED.toUTCString());
    expect(document.bytes?.equals(Buffer.from(document.body))).toBe(true);
  });

  it('gzips once for a client that accepts it, under its own entity tag', async () => {
    // supertest gunzips the body; the length is the gzipped bytes'.
    const first = await request(server()).get('/doc').set('Accept-Encoding', 'gzip');
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers.etag).toBe(`${document.etag.slice(0, -1)}-gzip"`);
    expect(first.headers['content-length']).toBe(String(document.gzipped?.length));
    expect(gunzipSync(document.gzipped!).toString()).toBe(document.body);
    expect(first.text).toBe(document.body);
    const kept = document.gzipped;
    await request(server()).get('/doc').set('Accept-Encoding', 'gzip');
    expect(document.gzipped).toBe(kept);
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await request(server()).head('/doc').set('Accept-Encoding', 'identity');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(document.body)));
    expect(res.text ?? '').toBe('');
  });

  it('answers 304 to either entity tag and to an If-Modified-Since the document is not newer than', async () => {
    const app = server();
    for (const etag of [document.etag, `${document.etag.slice(0, -1)}-gzip"`])
      expect((await request(app).get('/doc').set('If-None-Match', etag)).status).toBe(304);
    const since = (date: Date) => request(app).get('/doc').set('If-Modified-Since', date.toUTCString());
    expect((await since(MODIFIED)).status).toBe(304);
    expect((await since(new Date(MODIFIED.getTime() - 60_000))).status).toBe(200);
    expect((await request(app).get('/doc').set('If-None-Match', '"other"')).status).toBe(200);
  });

  it('sends the type exactly as given, and no gzip, when the options say so', async () => {
    const res = await request(server({ exactType: true, gzip: false }, 'application/json'))
      .get('/doc')
      .set('Accept-Encoding', 'gzip');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toBe(document.etag);
  });
});
