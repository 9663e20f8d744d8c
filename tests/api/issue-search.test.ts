// GET /repos/issues/search: every filter of the contract, newest first, X-Total-Count, and visibility through the
// repository access filter (a private repository's issues never appear to others, nor through q).
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, createToken, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
let org: User;
const titles = (body: Array<{ title: string }>) => body.map((issue) => issue.title);

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  other = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  const post = (path: string, body: object, who = owner) =>
    t.request().post(path).set('Authorization', who.auth).send(body).expect(201);
  await post('/api/v1/user/repos', { name: 'open-repo' });
  await post('/api/v1/user/repos', { name: 'closed-repo', private: true });
  await post(`/api/v1/orgs/${org.name}/repos`, { name: 'org-repo' });
  const openRepo = await t.context.db.prisma.repository.findFirstOrThrow({
    where: { ownerId: owner.user.id, lowerName: 'open-repo' },
  });
  const bug = await t.context.db.prisma.label.create({ data: { repoId: openRepo.id, name: 'bug', color: '#ff0000' } });
  const v1 = await t.context.db.prisma.milestone.create({ data: { repoId: openRepo.id, name: 'v1' } });
  const base = `/api/v1/repos/${owner.user.name}`;
  await post(`${base}/open-repo/issues`, { title: 'alpha needle', labels: [bug.id] });
  await post(`${base}/open-repo/issues`, { title: 'beta', milestone: v1.id, body: `cc @${other.user.name}` });
  await post(`${base}/open-repo/issues`, { title: 'gamma', closed: true });
  await post(`${base}/closed-repo/issues`, { title: 'secret needle' });
  await post(`/api/v1/repos/${org.name}/org-repo/issues`, { title: 'org issue', assignees: [owner.user.name] });
  const delta = await post(`${base}/open-repo/issues`, { title: 'delta by other' }, other);
  await t
    .request()
    .post(`${base}/open-repo/issues/${delta.body.number}/comments`)
    .set('Authorization', owner.auth)
    .send({ body: 'a hidden needle in a comment' })
    .expect(201);
});
afterAll(() => t.close());

async function search(query: string, who: TestUser | string | null = owner) {
  const req = t.request().get(`/api/v1/repos/issues/search${query}`);
  if (who) req.set('Authorization', typeof who === 'string' ? `token ${who}` : who.auth);
  return req.expect(200);
}

describe('issue search', () => {
  it('answers open issues newest first with X-Total-Count and Link', async () => {
    const res = await search('');
    expect(titles(res.body)).toEqual(['delta by other', 'org issue', 'secret needle', 'beta', 'alpha needle']);
    expect(res.headers['x-total-count']).toBe('5');
    const paged = await search('?limit=2&page=2');
    expect(titles(paged.body)).toEqual(['secret needle', 'beta']);
    expect(paged.headers['x-total-count']).toBe('5');
    expect(paged.headers.link).toContain('rel="next"');
  });

  it('filters by state, type, labels, milestones and q (title, body and comments)', async () => {
    expect(titles((await search('?state=closed')).body)).toEqual(['gamma']);
    expect((await search('?state=all')).body).toHaveLength(6);
    expect((await search('?type=pulls')).body).toEqual([]);
    expect(titles((await search('?labels=bug')).body)).toEqual(['alpha needle']);
    expect(titles((await search('?labels=bug,unknown-label')).body)).toEqual(['alpha needle']);
    expect((await search('?labels=unknown-label')).body).toHaveLength(5);
    expect(titles((await search('?milestones=v1')).body)).toEqual(['beta']);
    expect(titles((await search('?q=needle')).body)).toEqual(['delta by other', 'secret needle', 'alpha needle']);
    expect(titles((await search(`?q=${other.user.name}`)).body)).toEqual(['beta']);
  });

  it('filters by since and before (updated time); a bad time is 422', async () => {
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    const past = encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString());
    expect((await search(`?since=${future}`)).body).toEqual([]);
    expect((await search(`?before=${past}`)).body).toEqual([]);
    expect((await search(`?since=${past}`)).body).toHaveLength(5);
    await t.request().get('/api/v1/repos/issues/search?since=nonsense').expect(422);
  });

  it('filters by created, assigned, mentioned, review_requested and reviewed for the signed-in caller', async () => {
    expect(titles((await search('?created=true', other)).body)).toEqual(['delta by other']);
    expect(titles((await search('?assigned=true')).body)).toEqual(['org issue']);
    expect(titles((await search('?mentioned=true', other)).body)).toEqual(['beta']);
    expect((await search('?review_requested=true')).body).toEqual([]);
    expect((await search('?reviewed=true')).body).toEqual([]);
    // Anonymous callers: the personal filters do not apply.
    expect((await search('?created=true', null)).body).toHaveLength(4);
  });

  it('filters by owner and team; an unknown owner and a team without owner are 400', async () => {
    expect(titles((await search(`?owner=${org.name}`)).body)).toEqual(['org issue']);
    expect(titles((await search(`?owner=${org.name}&team=Owners`)).body)).toEqual(['org issue']);
    await t.request().get('/api/v1/repos/issues/search?owner=no-such-owner').expect(400);
    await t.request().get('/api/v1/repos/issues/search?team=Owners').expect(400);
    await t.request().get(`/api/v1/repos/issues/search?owner=${org.name}&team=nope`).expect(400);
  });

  it('never shows a private repository to others, anonymous callers or public-only tokens, nor through q', async () => {
    expect(titles((await search('?q=needle', other)).body)).toEqual(['delta by other', 'alpha needle']);
    expect(titles((await search('?q=secret', null)).body)).toEqual([]);
    expect((await search('', null)).headers['x-total-count']).toBe('4');
    const publicOnly = await createToken(t, owner.user, 'public-only,read:issue');
    expect(titles((await search('?q=needle', publicOnly)).body)).toEqual(['delta by other', 'alpha needle']);
    expect(titles((await search(`?owner=${owner.user.name}`, other)).body)).not.toContain('secret needle');
  });
});
