// GET /api/swagger: Swagger UI served by Anvil itself over /swagger.v1.json, checked over HTTP and in a real
// headless browser (Debian's chromium) that cannot reach any host but the test server.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const CHROMIUM_CANDIDATES = [
  process.env.ANVIL_TEST_CHROMIUM,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];
const chromium = CHROMIUM_CANDIDATES.find((candidate): candidate is string => !!candidate && fs.existsSync(candidate));
if (!chromium) {
  console.log(
    'api-docs browser check skipped: no chromium found (apt-get install chromium, or set ANVIL_TEST_CHROMIUM)',
  );
}

/** The DOM after the page's scripts ran; every host but loopback is unresolvable, so nothing can come from a CDN. */
function renderedDom(url: string): Promise<string> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-chromium-'));
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    `--user-data-dir=${profile}`,
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--virtual-time-budget=30000',
    '--dump-dom',
    url,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(chromium!, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let dom = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (chunk: Buffer) => (dom += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.rmSync(profile, { recursive: true, force: true });
      if (code === 0) resolve(dom);
      else reject(new Error(`chromium exited with ${code}`));
    });
  });
}

describe('with the docs page on (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves the page as HTML that loads only its own files', async () => {
    const res = await t.request().get('/api/swagger').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const references = [...res.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) expect(reference).toMatch(/^swagger\/[\w.-]+$/);
    expect(res.text).toContain('data-contract="../swagger.v1.json"');
  });

  it.each([
    ['swagger-ui.css', /^text\/css/],
    ['swagger-ui-bundle.js', /javascript/],
    ['anvil-init.js', /javascript/],
    ['favicon-32x32.png', /^image\/png/],
  ])('serves %s', async (asset, type) => {
    const res = await t.request().get(`/api/swagger/${asset}`).buffer(true).expect(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(Number(res.headers['content-length'])).toBeGreaterThan(100);
  });

  it.each(['index.html', 'swagger-initializer.js', '..%2F..%2Fpackage.json', '%2E%2E%2Fpackage.json', 'package.json'])(
    'answers 404 for %s',
    async (asset) => {
      await t.request().get(`/api/swagger/${asset}`).expect(404);
    },
  );

  (chromium ? it : it.skip)('renders the operation list in a headless browser', async () => {
    const server: Server = await new Promise((resolve) => {
      const listening = t.app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const dom = await renderedDom(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/swagger`);
      expect(dom).toContain('class="swagger-ui"');
      expect(dom).toMatch(/class="opblock opblock-get"/);
      expect(dom).toContain('data-path="/admin/cron"');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('with [api] ENABLE_SWAGGER=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ANVIL__api__ENABLE_SWAGGER: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 for the page and its files', async () => {
    await t.request().get('/api/swagger').expect(404);
    await t.request().get('/api/swagger/swagger-ui-bundle.js').expect(404);
  });
});
