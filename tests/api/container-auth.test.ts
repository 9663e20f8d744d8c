// Who may use the container registry: the challenge and token end point as Forgejo answers them, anonymous
// pulls of what is public, owner visibility (private and limited owners), organization teams' package unit,
// token scopes (read:package / write:package, public-only), and quota refused while streaming with nothing kept.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import {
  addTestOrgMember,
  createTestOrg,
  createTestUser,
  createToken,
  memberOfTeam,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { loadAtRestKey } from '../../src/crypto/at-rest-key.ts';
import { GHOST_USER_ID, RegistryTokens } from '../../src/packages/core/registry-token.ts';
import { basic, digestOf, pushBlob, pushImage, registryToken } from '../helpers/container.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceAuth: string;
let bobAuth: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  aliceAuth = await registryToken(t, basic(alice.user.name, alice.password));
  bobAuth = await registryToken(t, basic(bob.user.name, bob.password));
});
afterAll(() => t.close());

const CHALLENGE = 'Bearer realm="http://localhost:3000/v2/token",service="container_registry",scope="*"';

describe('the challenge and tokens', () => {
  it('challenges GET /v2/ without credentials (401 UNAUTHORIZED), and answers 200 with a token', async () => {
    const res = await t.request().get('/v2/').expect(401);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
    expect(res.body.errors[0].code).toBe('UNAUTHORIZED');
    await t.request().get('/v2/').set('Authorization', aliceAuth).expect(200);
    await t.request().get('/v2').set('Authorization', basic(alice.user.name, alice.password)).expect(200);
  });

  it('issues tokens for a password, an access token as password, and anonymous callers; refuses bad credentials', async () => {
    const res = await t
      .request()
      .get('/v2/token')
      .set('Authorization', basic(alice.user.name, alice.token))
      .expect(200);
    expect(Object.keys(res.body)).toEqual(['token']);
    await t.request().get('/v2/').set('Authorization', `Bearer ${res.body.token}`).expect(200);
    await t.request().get('/v2/token').expect(200);
    const bad = await t.request().get('/v2/token').set('Authorization', basic(alice.user.name, 'wrong')).expect(401);
    expect(bad.body.errors[0].code).toBe('UNAUTHORIZED');
    const forged = `${res.body.token.slice(0, -4)}AAAA`;
    await t.request().get('/v2/').set('Authorization', `Bearer ${forged}`).expect(401);
  });

  it('refuses a token for an access token without a package scope (401)', async () => {
    const token = await createToken(t, alice.user, 'read:repository');
    await t.request().get('/v2/token').set('Authorization', basic(alice.user.name, token)).expect(401);
  });

  it('challenges image requests without any credential, even for public images', async () => {
    const name = `${alice.user.name}/${uniqueName('img')}`;
    await pushImage(t, aliceAuth, name, 'v1');
    const res = await t.request().get(`/v2/${name}/manifests/v1`).expect(401);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('refuses anonymous tokens, old ones too, when the site requires signing in to view', async () => {
    const closed = await startTestApp({ ANVIL__service__REQUIRE_SIGNIN_VIEW: 'true' });
    try {
      await closed.request().get('/v2/token').expect(401);
      const user = await createTestUser(closed);
      const userAuth = await registryToken(closed, basic(user.user.name, user.password));
      const name = `${user.user.name}/${uniqueName('img')}`;
      await pushImage(closed, userAuth, name, 'v1');
      const { settings } = closed.context;
      const minted = new RegistryTokens(loadAtRestKey(settings.security.SECRET_KEY, settings.server.APP_DATA_PATH).key);
      const ghost = `Bearer ${minted.issue({ userId: GHOST_USER_ID, scope: null })}`;
      await closed.request().get(`/v2/${name}/manifests/v1`).set('Authorization', ghost).expect(401);
      await closed.request().get(`/v2/${name}/manifests/v1`).set('Authorization', userAuth).expect(200);
    } finally {
      await closed.close();
    }
  });

  it('answers NAME_INVALID for an image name Forgejo refuses', async () => {
    const res = await t
      .request()
      .get(`/v2/${alice.user.name}/Upper/manifests/v1`)
      .set('Authorization', aliceAuth)
      .expect(400);
    expect(res.body.errors[0].code).toBe('NAME_INVALID');
  });
});

describe('visibility and permissions', () => {
  it('lets an anonymous token pull a public image but not push (401)', async () => {
    const name = `${alice.user.name}/${uniqueName('img')}`;
    const image = await pushImage(t, aliceAuth, name, 'v1');
    const anonymous = await registryToken(t);
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', anonymous).expect(200);
    await t
      .request()
      .get(`/v2/${name}/blobs/${digestOf(image.layers[0])}`)
      .set('Authorization', anonymous)
      .expect(200);
    const push = await pushBlob(t, anonymous, name, randomBytes(10)).expect(401);
    expect(push.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it('refuses another user pushing to alice (403 DENIED)', async () => {
    const res = await pushBlob(t, bobAuth, `${alice.user.name}/${uniqueName('img')}`, randomBytes(10)).expect(403);
    expect(res.body.errors[0].code).toBe('DENIED');
  });

  it("hides a private user's images: 401 to anonymous callers, 404 NAME_UNKNOWN to others, like an unknown owner", async () => {
    const hidden = await createTestUser(t, { fields: { visibility: 2 } });
    const hiddenAuth = await registryToken(t, basic(hidden.user.name, hidden.password));
    const name = `${hidden.user.name}/${uniqueName('img')}`;
    await pushImage(t, hiddenAuth, name, 'v1');
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', hiddenAuth).expect(200);
    await t
      .request()
      .get(`/v2/${name}/manifests/v1`)
      .set('Authorization', await registryToken(t))
      .expect(401);
    const other = await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', bobAuth).expect(404);
    expect(other.body.errors[0].code).toBe('NAME_UNKNOWN');
    const unknown = await t
      .request()
      .get(`/v2/nobody${uniqueName()}/img/manifests/v1`)
      .set('Authorization', bobAuth)
      .expect(404);
    expect(unknown.body.errors[0].code).toBe('NAME_UNKNOWN');
  });

  it("lets signed-in users pull a limited user's images, not anonymous ones", async () => {
    const limited = await createTestUser(t, { fields: { visibility: 1 } });
    const limitedAuth = await registryToken(t, basic(limited.user.name, limited.password));
    const name = `${limited.user.name}/${uniqueName('img')}`;
    await pushImage(t, limitedAuth, name, 'v1');
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', bobAuth).expect(200);
    await t
      .request()
      .get(`/v2/${name}/manifests/v1`)
      .set('Authorization', await registryToken(t))
      .expect(401);
  });

  it("applies a private organization's teams: members read, a packages-unit writer pushes, outsiders see nothing", async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const reader = await createTestUser(t);
    const writer = await createTestUser(t);
    await addTestOrgMember(t, org, reader.user, { accessMode: 1 });
    await memberOfTeam(t, org, alice, writer.user, {
      permission: 'read',
      units_map: { 'repo.packages': 'write' },
      units: ['repo.packages'],
    });
    const name = `${org.name}/${uniqueName('app')}`;
    await pushImage(t, aliceAuth, name, 'v1');
    const readerAuth = await registryToken(t, basic(reader.user.name, reader.password));
    const writerAuth = await registryToken(t, basic(writer.user.name, writer.password));
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', readerAuth).expect(200);
    await pushBlob(t, readerAuth, name, randomBytes(10)).expect(403);
    await pushBlob(t, writerAuth, name, randomBytes(10)).expect(201);
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', bobAuth).expect(404);
  });

  it('keeps nested image names apart', async () => {
    const name = `${alice.user.name}/team/app`;
    await pushImage(t, aliceAuth, name, 'v1');
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', aliceAuth).expect(200);
    await t.request().get(`/v2/${alice.user.name}/team/manifests/v1`).set('Authorization', aliceAuth).expect(404);
  });
});

describe('token scopes', () => {
  it('lets a read:package token pull but not push (403 DENIED); write:package pushes', async () => {
    const name = `${alice.user.name}/${uniqueName('img')}`;
    await pushImage(t, aliceAuth, name, 'v1');
    const readOnly = await registryToken(t, basic(alice.user.name, await createToken(t, alice.user, 'read:package')));
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', readOnly).expect(200);
    const refused = await pushBlob(t, readOnly, name, randomBytes(10)).expect(403);
    expect(refused.body.errors[0].code).toBe('DENIED');
    const writing = await registryToken(t, basic(alice.user.name, await createToken(t, alice.user, 'write:package')));
    await pushBlob(t, writing, name, randomBytes(10)).expect(201);
  });

  it('lets an access token reach the registry directly with the same scope rules', async () => {
    const name = `${alice.user.name}/${uniqueName('img')}`;
    await pushImage(t, aliceAuth, name, 'v1');
    const token = await createToken(t, alice.user, 'read:package');
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', basic(alice.user.name, token)).expect(200);
    await pushBlob(t, basic(alice.user.name, token), name, randomBytes(10)).expect(403);
  });

  it('keeps a public-only token to public owners', async () => {
    const hidden = await createTestUser(t, { fields: { visibility: 2 } });
    const name = `${hidden.user.name}/${uniqueName('img')}`;
    await pushImage(t, await registryToken(t, basic(hidden.user.name, hidden.password)), name, 'v1');
    const publicOnly = await registryToken(
      t,
      basic(hidden.user.name, await createToken(t, hidden.user, 'public-only,read:package')),
    );
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', publicOnly).expect(403);
  });
});

describe('quota', () => {
  it("refuses a blob past the owner's package quota while streaming (413 DENIED) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const auth = await registryToken(t, basic(owner.user.name, owner.password));
    const name = `${owner.user.name}/${uniqueName('img')}`;
    await pushBlob(t, auth, name, randomBytes(60_000)).expect(201);
    const big = randomBytes(60_000);
    const res = await pushBlob(t, auth, name, big).expect(413);
    expect(res.body.errors[0].code).toBe('DENIED');
    // A chunk of no announced length is stopped as it streams past the limit.
    const { headers } = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const server = t.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const streamed = await fetch(`http://127.0.0.1:${port}${headers.location as string}`, {
        method: 'PATCH',
        headers: { Authorization: auth },
        body: Readable.toWeb(Readable.from([big.subarray(0, 30_000), big.subarray(30_000)])) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      expect(streamed.status).toBe(413);
    } finally {
      server.close();
    }
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digestOf(big).slice(7) } })).toBe(0);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });

  it('refuses a blob past [packages] LIMIT_SIZE_CONTAINER (413 SIZE_INVALID)', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CONTAINER: '1000' });
    try {
      const user = await createTestUser(limited);
      const auth = await registryToken(limited, basic(user.user.name, user.password));
      const res = await pushBlob(limited, auth, `${user.user.name}/img`, randomBytes(2000)).expect(413);
      expect(res.body.errors[0].code).toBe('SIZE_INVALID');
    } finally {
      await limited.close();
    }
  });
});
