import { createTestOrg, createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

interface ApiEmail {
  email: string;
  verified: boolean;
  primary: boolean;
  user_id: number;
  username: string;
}

const get = (url: string, auth = admin.auth) => t.request().get(url).set('Authorization', auth);

describe('GET /admin/emails', () => {
  it('needs a site administrator', async () => {
    const alice = await createTestUser(t);
    await t.request().get('/api/v1/admin/emails').expect(401);
    await get('/api/v1/admin/emails', alice.auth).expect(403);
    await get('/api/v1/admin/emails/search?q=a', alice.auth).expect(403);
  });

  it('lists every address of individual users, by address, with the owner', async () => {
    const bob = await createTestUser(t);
    const secondary = `zz-${uniqueName()}@example.com`;
    await t.context.db.prisma.emailAddress.create({
      data: { userId: bob.user.id, email: secondary, lowerEmail: secondary, isPrimary: false, isActivated: false },
    });
    const org = await createTestOrg(t, admin.user);
    const orgEmail = `${org.lowerName}@example.com`;
    await t.context.db.prisma.emailAddress.create({
      data: { userId: org.id, email: orgEmail, lowerEmail: orgEmail, isPrimary: true },
    });

    const res = await get('/api/v1/admin/emails?limit=50').expect(200);
    const emails = res.body as ApiEmail[];
    expect(Number(res.headers['x-total-count'])).toBe(emails.length);
    expect(emails.map((e) => e.email)).toEqual(
      [...emails.map((e) => e.email)].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)),
    );
    expect(emails).toContainEqual({
      email: bob.user.email,
      verified: true,
      primary: true,
      user_id: bob.user.id,
      username: bob.user.name,
    });
    expect(emails).toContainEqual({
      email: secondary,
      verified: false,
      primary: false,
      user_id: bob.user.id,
      username: bob.user.name,
    });
    expect(emails.map((e) => e.email)).not.toContain(orgEmail);
  });

  it('pages with X-Total-Count and Link', async () => {
    await Promise.all([createTestUser(t), createTestUser(t), createTestUser(t)]);
    const all = (await get('/api/v1/admin/emails?limit=50').expect(200)).body as ApiEmail[];
    const res = await get('/api/v1/admin/emails?limit=2&page=1').expect(200);
    expect(res.body.map((e: ApiEmail) => e.email)).toEqual(all.slice(0, 2).map((e) => e.email));
    expect(Number(res.headers['x-total-count'])).toBe(all.length);
    expect(res.headers.link).toContain('<http://localhost:3000/api/v1/admin/emails?limit=2&page=2>; rel="next"');
  });
});

describe('GET /admin/emails/search', () => {
  it('matches user name, full name or address, ignoring case', async () => {
    const marker = uniqueName('Marker');
    const byName = await createTestUser(t, { name: `${marker}Name` });
    const byFullName = await createTestUser(t, { fields: { fullName: `Someone ${marker.toUpperCase()} Else` } });
    const byAddress = await createTestUser(t);
    const address = `${marker.toLowerCase()}@mail.example`;
    await t.context.db.prisma.emailAddress.create({
      data: { userId: byAddress.user.id, email: address, lowerEmail: address },
    });
    await createTestUser(t);

    const res = await get(`/api/v1/admin/emails/search?q=${encodeURIComponent(`  ${marker.toUpperCase()} `)}`).expect(
      200,
    );
    const found = res.body as ApiEmail[];
    expect(found.map((e) => e.user_id).sort()).toEqual([byName.user.id, byFullName.user.id, byAddress.user.id].sort());
    expect(found.find((e) => e.user_id === byAddress.user.id)?.email).toBe(address);
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('lists everything without a keyword', async () => {
    const all = await get('/api/v1/admin/emails').expect(200);
    const search = await get('/api/v1/admin/emails/search').expect(200);
    expect(search.headers['x-total-count']).toBe(all.headers['x-total-count']);
  });
});
