// GET /repos/search: every filter, with visibility; X-Total-Count never counts what the caller cannot see.
import { createTestOrg, createTestUser, createToken, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;
let teamId: number;
const ids: Record<string, number> = {};

async function make(
  owner: TestUser,
  name: string,
  body: Record<string, unknown> = {},
  data: Record<string, unknown> = {},
) {
  const res = await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name, ...body })
    .expect(201);
  ids[name] = res.body.id;
  if (Object.keys(data).length) await t.context.db.prisma.repository.update({ where: { id: res.body.id }, data });
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t, { name: 'alice' });
  bob = await createTestUser(t, { name: 'bob' });
  carol = await createTestUser(t, { name: 'carol', fields: { visibility: 2 } });
  admin = await createTestUser(t, { name: 'root', admin: true });
  const { prisma } = t.context.db;
  await make(
    alice,
    'alpha-one',
    { description: 'A fast Engine' },
    { topics: JSON.stringify(['rust', 'cli']), numStars: 5 },
  );
  await make(alice, 'alpha-secret', { private: true });
  await make(alice, 'alpha-collab', { private: true });
  await make(alice, 'tmpl-repo', { template: true });
  await make(alice, 'old-stuff', {}, { isArchived: true });
  await make(alice, 'mirror-x', {}, { isMirror: true });
  await make(alice, 'fork-y', {}, { isFork: true });
  await make(bob, 'bravo');
  await make(bob, 'bravo-secret', { private: true });
  await make(carol, 'carol-hidden');
  await prisma.collaboration.create({ data: { repoId: ids['alpha-collab'], userId: bob.user.id, accessMode: 2 } });
  await prisma.star.create({ data: { userId: bob.user.id, repoId: ids['alpha-one'] } });

  const hiddenOrg = await createTestOrg(t, alice.user, { name: 'hiddenorg', visibility: 2 });
  const res = await t
    .request()
    .post(`/api/v1/orgs/${hiddenOrg.name}/repos`)
    .set('Authorization', alice.auth)
    .send({ name: 'org-hidden' })
    .expect(201);
  ids['org-hidden'] = res.body.id;
  const openOrg = await createTestOrg(t, alice.user, { name: 'openorg' });
  for (const name of ['org-open', 'org-team-secret']) {
    const created = await t
      .request()
      .post(`/api/v1/orgs/${openOrg.name}/repos`)
      .set('Authorization', alice.auth)
      .send({ name, private: name !== 'org-open' })
      .expect(201);
    ids[name] = created.body.id;
  }
  const team = await prisma.team.create({
    data: { orgId: openOrg.id, name: 'readers', lowerName: 'readers', accessMode: 1 },
  });
  teamId = team.id;
  await prisma.teamUnit.create({ data: { orgId: openOrg.id, teamId, type: 1, accessMode: 1 } });
  await prisma.teamUser.create({ data: { orgId: openOrg.id, teamId, userId: bob.user.id } });
  await prisma.orgUser.create({ data: { orgId: openOrg.id, userId: bob.user.id } });
  await prisma.teamRepo.create({ data: { orgId: openOrg.id, teamId, repoId: ids['org-team-secret'] } });
});
afterAll(() => t.close());

async function search(user: TestUser | null, query: string, status = 200) {
  const req = t.request().get(`/api/v1/repos/search?limit=50&${query}`);
  if (user) req.set('Authorization', user.auth);
  const res = await req.expect(status);
  if (status !== 200) return { names: [] as string[], total: -1, body: res.body };
  expect(res.body.ok).toBe(true);
  const names = (res.body.data as Array<{ name: string }>).map((r) => r.name);
  // The count and the rows come from the same filter.
  expect(Number(res.headers['x-total-count'])).toBe(names.length);
  return { names, total: Number(res.headers['x-total-count']), body: res.body };
}

const PUBLIC = ['alpha-one', 'tmpl-repo', 'old-stuff', 'mirror-x', 'fork-y', 'bravo', 'org-open'];
const sorted = (names: string[]) => [...names].sort();

describe('visibility', () => {
  it.each<[string, () => TestUser | null, string, string[]]>([
    ['anonymous', () => null, '', PUBLIC],
    [
      'alice (owner of most)',
      () => alice,
      '',
      [...PUBLIC, 'alpha-secret', 'alpha-collab', 'org-hidden', 'org-team-secret'],
    ],
    ['bob (collaborator, team member)', () => bob, '', [...PUBLIC, 'bravo-secret', 'alpha-collab', 'org-team-secret']],
    ['bob with private=false', () => bob, 'private=false', PUBLIC],
    ['carol (a private user) sees her own', () => carol, '', [...PUBLIC, 'carol-hidden']],
    [
      'an administrator sees everything',
      () => admin,
      '',
      [...PUBLIC, 'alpha-secret', 'alpha-collab', 'org-hidden', 'org-team-secret', 'bravo-secret', 'carol-hidden'],
    ],
    ['is_private=true for bob', () => bob, 'is_private=true', ['bravo-secret', 'alpha-collab', 'org-team-secret']],
    ['is_private=false for alice', () => alice, 'is_private=false', [...PUBLIC, 'org-hidden']],
  ])('%s', async (_label, who, query, expected) => {
    const { names } = await search(who(), query);
    expect(sorted(names)).toEqual(sorted(expected));
  });

  it('restricted users see only repositories given to them', async () => {
    const rita = await createTestUser(t, { fields: { isRestricted: true } });
    expect((await search(rita, '')).names).toEqual([]);
    await t.context.db.prisma.collaboration.create({
      data: { repoId: ids['alpha-secret'], userId: rita.user.id, accessMode: 1 },
    });
    expect((await search(rita, '')).names).toEqual(['alpha-secret']);
  });

  it('public-only tokens see public repositories only', async () => {
    const token = await createToken(t, alice.user, 'public-only,read:repository');
    const res = await t
      .request()
      .get('/api/v1/repos/search?limit=50')
      .set('Authorization', `token ${token}`)
      .expect(200);
    expect(sorted(res.body.data.map((r: { name: string }) => r.name))).toEqual(sorted(PUBLIC));
    expect(res.headers['x-total-count']).toBe(String(PUBLIC.length));
  });
});

describe('filters', () => {
  it.each<[string, () => TestUser | null, () => string, string[]]>([
    ['template=true', () => null, () => 'template=true', ['tmpl-repo']],
    ['template=false', () => null, () => 'template=false', PUBLIC.filter((n) => n !== 'tmpl-repo')],
    ['archived=true', () => null, () => 'archived=true', ['old-stuff']],
    ['archived=false', () => null, () => 'archived=false', PUBLIC.filter((n) => n !== 'old-stuff')],
    ['mode=mirror', () => null, () => 'mode=mirror', ['mirror-x']],
    ['mode=fork', () => null, () => 'mode=fork', ['fork-y']],
    ['mode=source', () => null, () => 'mode=source', PUBLIC.filter((n) => n !== 'mirror-x' && n !== 'fork-y')],
    [
      'uid: owned and collaborated',
      () => bob,
      () => `uid=${bob.user.id}`,
      ['bravo', 'bravo-secret', 'alpha-collab', 'org-team-secret'],
    ],
    ['uid + exclusive: owned only', () => bob, () => `uid=${bob.user.id}&exclusive=true`, ['bravo', 'bravo-secret']],
    [
      'uid + mode=collaborative',
      () => bob,
      () => `uid=${bob.user.id}&mode=collaborative`,
      ['alpha-collab', 'org-team-secret'],
    ],
    ['uid of another user shows only what the caller may see', () => carol, () => `uid=${bob.user.id}`, ['bravo']],
    ['starredBy', () => null, () => `starredBy=${bob.user.id}`, ['alpha-one']],
    ['team_id', () => bob, () => `team_id=${teamId}`, ['org-team-secret']],
    ['team_id hides from outsiders', () => carol, () => `team_id=${teamId}`, []],
    [
      'q: name substring, case-insensitive',
      () => alice,
      () => 'q=ALPHA',
      ['alpha-one', 'alpha-secret', 'alpha-collab'],
    ],
    ['q: comma-separated', () => null, () => 'q=bravo,tmpl', ['bravo', 'tmpl-repo']],
    ['q: owner/name', () => null, () => 'q=bob/brav', ['bravo']],
    ['q: description only with includeDesc', () => null, () => 'q=engine', []],
    ['q + includeDesc', () => null, () => 'q=engine&includeDesc=true', ['alpha-one']],
    ['q + topic: exact topic', () => null, () => 'q=rust&topic=true', ['alpha-one']],
    ['q + topic: no substring', () => null, () => 'q=rus&topic=true', []],
    ['q never reveals hidden repositories', () => bob, () => 'q=secret', ['bravo-secret', 'org-team-secret']],
  ])('%s', async (_label, who, query, expected) => {
    const { names } = await search(who(), query());
    expect(sorted(names)).toEqual(sorted(expected));
  });

  it('refuses bad mode, sort and order with 422', async () => {
    await search(null, 'mode=nonsense', 422);
    await search(null, 'sort=nonsense', 422);
    await search(null, 'sort=id&order=sideways', 422);
  });
});

describe('order and paging', () => {
  it('sorts by name by default, and by the requested field and order', async () => {
    expect((await search(null, '')).names).toEqual(sorted(PUBLIC));
    expect((await search(null, 'sort=alpha&order=desc')).names).toEqual([
      'org-open',
      'bravo',
      'tmpl-repo',
      'old-stuff',
      'mirror-x',
      'fork-y',
      'alpha-one',
    ]);
    const byId = PUBLIC.map((n) => [n, ids[n]] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([n]) => n);
    expect((await search(null, 'sort=id')).names).toEqual(byId);
    expect((await search(null, 'sort=created&order=desc')).names).toEqual([...byId].reverse());
    expect((await search(null, 'sort=stars&order=desc')).names[0]).toBe('alpha-one');
  });

  it('puts priority_owner_id first', async () => {
    const { names } = await search(null, `priority_owner_id=${bob.user.id}`);
    expect(names[0]).toBe('bravo');
    expect(sorted(names)).toEqual(sorted(PUBLIC));
  });

  it('pages with X-Total-Count of everything visible and Link headers', async () => {
    const res = await t.request().get('/api/v1/repos/search?limit=2&page=2').set('Authorization', bob.auth).expect(200);
    expect(res.headers['x-total-count']).toBe(String(PUBLIC.length + 3));
    expect(res.body.data.map((r: { name: string }) => r.name)).toEqual(
      sorted([...PUBLIC, 'bravo-secret', 'alpha-collab', 'org-team-secret']).slice(2, 4),
    );
    expect(res.headers.link).toContain('rel="next"');
    expect(res.headers.link).toContain('rel="prev"');
    const priority = await t
      .request()
      .get(`/api/v1/repos/search?limit=2&page=1&priority_owner_id=${bob.user.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(priority.body.data.map((r: { name: string }) => r.name)).toEqual(['bravo', 'bravo-secret']);
    const priority2 = await t
      .request()
      .get(`/api/v1/repos/search?limit=2&page=2&priority_owner_id=${bob.user.id}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(priority2.body.data.map((r: { name: string }) => r.name)).toEqual(['alpha-collab', 'alpha-one']);
  });

  it('answers permissions per repository', async () => {
    const { body } = await search(bob, 'q=alpha');
    const byName = Object.fromEntries(
      body.data.map((r: { name: string; permissions: unknown }) => [r.name, r.permissions]),
    );
    expect(byName['alpha-collab']).toEqual({ admin: false, push: true, pull: true });
    expect(byName['alpha-one']).toEqual({ admin: false, push: false, pull: true });
  });
});
