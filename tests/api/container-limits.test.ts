// Limits and names the registry checks up front: a Content-Length already past [packages] LIMIT_SIZE_CONTAINER or
// the owner's quota is refused before the body is read (the answer comes while the client still holds most of it)
// and nothing is kept; a chunked upload is bounded as a whole, not chunk by chunk; sha512 digests are taken where
// the spec allows them, other algorithms refused with DIGEST_INVALID; and /v2/_catalog lists the images of the
// owners the caller may see, Forgejo's way (at most 100 a page, `last`, Link).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import {
  basic,
  digestOf,
  OCI_MANIFEST,
  pushBlob,
  pushImage,
  pushManifest,
  raw,
  registryToken,
} from '../helpers/container.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const sha512Of = (bytes: Buffer) => `sha512:${createHash('sha512').update(bytes).digest('hex')}`;

/** Every regular file below a directory (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * Sends the headers of a request announcing `length` bytes and only the first bytes of its body, and answers the
 * response: it can only come if the server decided on the headers alone.
 */
async function announce(
  t: TestApp,
  method: string,
  route: string,
  auth: string,
  length: number,
  extra: Record<string, string> = {},
) {
  const server = t.app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<{ status: number; body: any; connection?: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: route,
          headers: {
            Authorization: auth,
            'Content-Type': 'application/octet-stream',
            'Content-Length': length,
            ...extra,
          },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            request.destroy();
            const text = Buffer.concat(chunks).toString();
            resolve({
              status: response.statusCode!,
              body: text ? JSON.parse(text) : null,
              connection: response.headers.connection,
            });
          });
        },
      );
      request.on('error', reject);
      request.write(randomBytes(1024));
    });
  } finally {
    server.close();
    server.closeAllConnections();
  }
}

describe('sizes refused up front', () => {
  let t: TestApp;
  let user: TestUser;
  let auth: string;

  beforeAll(async () => {
    t = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CONTAINER: '100000' });
    user = await createTestUser(t);
    auth = await registryToken(t, basic(user.user.name, user.password));
  });
  afterAll(() => t.close());

  const keptFiles = () => filesUnder(path.join(t.dataDir, 'packages'));

  it('refuses a monolithic push whose Content-Length passes the limit before reading it (413 SIZE_INVALID)', async () => {
    const before = keptFiles();
    const name = `${user.user.name}/big`;
    const digest = `sha256:${'0'.repeat(64)}`;
    const res = await announce(t, 'POST', `/v2/${name}/blobs/uploads/?digest=${digest}`, auth, 10 * 1024 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(res.body.errors[0].code).toBe('SIZE_INVALID');
    expect(res.connection).toBe('close');
    expect(keptFiles()).toEqual(before);
    expect(await t.context.db.prisma.packageBlob.count()).toBe(0);
  });

  it('refuses a chunk whose Content-Length passes what the upload may still take', async () => {
    const name = `${user.user.name}/chunks`;
    const started = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = started.headers.location as string;
    const first = randomBytes(60_000);
    const patched = await t
      .request()
      .patch(location)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Range', `0-${first.length - 1}`)
      .send(first)
      .expect(202);
    expect(patched.headers.range).toBe(`0-${first.length - 1}`);
    // 60 000 + 60 000 passes 100 000 though each chunk alone would not.
    const before = keptFiles();
    const second = await announce(t, 'PATCH', patched.headers.location as string, auth, 60_000, {
      'Content-Range': `${first.length}-${first.length + 59_999}`,
    });
    expect(second.status).toBe(413);
    expect(second.body.errors[0].code).toBe('SIZE_INVALID');
    expect(keptFiles()).toEqual(before);
    // The same without a length is stopped as it streams.
    const streamed = await t
      .request()
      .patch(patched.headers.location as string)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Range', `${first.length}-${first.length + 59_999}`)
      .send(randomBytes(60_000))
      .expect(413);
    expect(streamed.body.errors[0].code).toBe('SIZE_INVALID');
    const status = await t.request().get(location).set('Authorization', auth).expect(204);
    expect(status.headers.range).toBe(`0-${first.length - 1}`);
  });

  it("refuses a Content-Length past the owner's quota before reading it (413 DENIED), holding nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 50_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const ownerAuth = await registryToken(t, basic(owner.user.name, owner.password));
    const before = keptFiles();
    const digest = `sha256:${'1'.repeat(64)}`;
    const res = await announce(
      t,
      'POST',
      `/v2/${owner.user.name}/img/blobs/uploads/?digest=${digest}`,
      ownerAuth,
      80_000,
    );
    expect(res.status).toBe(413);
    expect(res.body.errors[0].code).toBe('DENIED');
    expect(keptFiles()).toEqual(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});

describe('digests', () => {
  let t: TestApp;
  let user: TestUser;
  let auth: string;
  let name: string;

  beforeAll(async () => {
    t = await startTestApp();
    user = await createTestUser(t);
    auth = await registryToken(t, basic(user.user.name, user.password));
    name = `${user.user.name}/digests`;
  });
  afterAll(() => t.close());

  it('takes a blob pushed under its sha512 digest, whole or in chunks, and serves it by that digest', async () => {
    const whole = randomBytes(4096);
    const pushed = await pushBlob(t, auth, name, whole, sha512Of(whole)).expect(201);
    expect(pushed.headers['docker-content-digest']).toBe(sha512Of(whole));
    const head = await t
      .request()
      .head(`/v2/${name}/blobs/${sha512Of(whole)}`)
      .set('Authorization', auth)
      .expect(200);
    expect(head.headers['docker-content-digest']).toBe(sha512Of(whole));
    const got = await raw(
      t
        .request()
        .get(`/v2/${name}/blobs/${sha512Of(whole)}`)
        .set('Authorization', auth),
    ).expect(200);
    expect(Buffer.compare(got.body as Buffer, whole)).toBe(0);

    const chunked = randomBytes(5000);
    const started = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    let location = started.headers.location as string;
    for (const [from, to] of [
      [0, 2500],
      [2500, 5000],
    ]) {
      const patched = await t
        .request()
        .patch(location)
        .set('Authorization', auth)
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Range', `${from}-${to - 1}`)
        .send(chunked.subarray(from, to))
        .expect(202);
      location = patched.headers.location as string;
    }
    await t
      .request()
      .put(`${location}?digest=${sha512Of(chunked)}`)
      .set('Authorization', auth)
      .expect(201);
    const back = await raw(
      t
        .request()
        .get(`/v2/${name}/blobs/${sha512Of(chunked)}`)
        .set('Authorization', auth),
    ).expect(200);
    expect(Buffer.compare(back.body as Buffer, chunked)).toBe(0);
  });

  it('takes a manifest pushed by its sha512 digest and serves it by that digest', async () => {
    const image = await pushImage(t, auth, name, 'v1');
    const reference = sha512Of(image.manifest);
    const put = await pushManifest(t, auth, name, reference, image.manifest).expect(201);
    expect(put.headers['docker-content-digest']).toBe(reference);
    const got = await raw(
      t.request().get(`/v2/${name}/manifests/${reference}`).set('Authorization', auth).set('Accept', OCI_MANIFEST),
    ).expect(200);
    expect(got.headers['docker-content-digest']).toBe(reference);
    expect(Buffer.compare(got.body as Buffer, image.manifest)).toBe(0);
  });

  it('refuses other algorithms, malformed digests and a digest the bytes do not have (400 DIGEST_INVALID)', async () => {
    const bytes = randomBytes(100);
    const md5 = `md5:${createHash('md5').update(bytes).digest('hex')}`;
    for (const digest of [md5, 'sha256:abc', `sha512:${'a'.repeat(64)}`, sha512Of(randomBytes(100))]) {
      const res = await pushBlob(t, auth, name, bytes, digest).expect(400);
      expect(res.body.errors[0].code).toBe('DIGEST_INVALID');
    }
    const manifest = await pushManifest(
      t,
      auth,
      name,
      sha512Of(randomBytes(10)),
      (await pushImage(t, auth, name, 'v2')).manifest,
    );
    expect([manifest.status, manifest.body.errors[0].code]).toEqual([400, 'DIGEST_INVALID']);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digestOf(bytes).slice(7) } })).toBe(0);
  });
});

describe('the catalog', () => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let aliceAuth: string;
  let bobAuth: string;
  let publicOrg: string;
  let privateOrg: string;

  beforeAll(async () => {
    t = await startTestApp();
    alice = await createTestUser(t);
    bob = await createTestUser(t);
    aliceAuth = await registryToken(t, basic(alice.user.name, alice.password));
    bobAuth = await registryToken(t, basic(bob.user.name, bob.password));
    publicOrg = (await createTestOrg(t, alice.user, { visibility: 0 })).name.toLowerCase();
    privateOrg = (await createTestOrg(t, alice.user, { visibility: 2 })).name.toLowerCase();
    for (const image of ['zeta', 'alpha', 'team/app'])
      await pushImage(t, aliceAuth, `${alice.user.name}/${image}`, 'v1');
    await pushImage(t, aliceAuth, `${publicOrg}/site`, 'v1');
    await pushImage(t, aliceAuth, `${privateOrg}/secret`, 'v1');
    // Blobs without a manifest make no image.
    await pushBlob(t, aliceAuth, `${alice.user.name}/unfinished`, randomBytes(100)).expect(201);
  });
  afterAll(() => t.close());

  const catalog = (auth: string | null, query = '') => {
    const request = t.request().get(`/v2/_catalog${query}`);
    return auth ? request.set('Authorization', auth) : request;
  };

  it("lists, in order, the images of owners the caller may see, a private org's to its members only", async () => {
    const own = ['alpha', 'team/app', 'zeta'].map((image) => `${alice.user.name.toLowerCase()}/${image}`);
    const forAlice = await catalog(aliceAuth).expect(200);
    expect(forAlice.body).toEqual({ repositories: [...own, `${publicOrg}/site`, `${privateOrg}/secret`].sort() });
    const forBob = await catalog(bobAuth).expect(200);
    expect(forBob.body.repositories).toEqual([...own, `${publicOrg}/site`].sort());
    const anonymous = await catalog(await registryToken(t)).expect(200);
    expect(anonymous.body.repositories).toEqual(forBob.body.repositories);
  });

  it('pages with n and last, and links the next page', async () => {
    const all = (await catalog(aliceAuth).expect(200)).body.repositories as string[];
    const seen: string[] = [];
    let query = '?n=2';
    for (;;) {
      const page = await catalog(aliceAuth, query).expect(200);
      expect(page.body.repositories.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.repositories);
      const link = page.headers.link as string | undefined;
      if (!link) break;
      const next = /^<\/v2\/_catalog(\?[^>]+)>; rel="next"$/.exec(link);
      expect(next).not.toBeNull();
      query = next![1];
    }
    expect(seen).toEqual(all);
    const after = await catalog(aliceAuth, `?last=${encodeURIComponent(all[1])}`).expect(200);
    expect(after.body.repositories).toEqual(all.slice(2));
    for (const n of ['0', '-1', '1000', 'x']) {
      expect((await catalog(aliceAuth, `?n=${n}`).expect(200)).body.repositories).toEqual(all);
    }
  });

  it('challenges a caller without credentials, refuses a token without package scope, narrows public-only', async () => {
    const res = await catalog(null).expect(401);
    expect(res.body.errors[0].code).toBe('UNAUTHORIZED');
    const noScope = basic(alice.user.name, await createToken(t, alice.user, 'read:repository'));
    expect((await catalog(noScope).expect(403)).body.errors[0].code).toBe('DENIED');
    const publicOnly = basic(alice.user.name, await createToken(t, alice.user, 'public-only,read:package'));
    const narrowed = await catalog(publicOnly).expect(200);
    expect(narrowed.body.repositories).not.toContain(`${privateOrg}/secret`);
    expect(narrowed.body.repositories).toContain(`${publicOrg}/site`);
    await t.request().post('/v2/_catalog').set('Authorization', aliceAuth).expect(405);
  });
});
