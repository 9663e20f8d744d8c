import type { Repository, User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let admin: TestUser;
let org: User;
const repos = {} as Record<'open' | 'teamPrivate' | 'otherPrivate', Repository>;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
  outsider = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
  org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  const { prisma } = t.context.db;
  const make = (name: string, isPrivate: boolean) =>
    prisma.repository.create({ data: { ownerId: org.id, ownerName: org.name, name, lowerName: name, isPrivate } });
  repos.open = await make('open', false);
  repos.teamPrivate = await make('team-private', true);
  repos.otherPrivate = await make('other-private', true);
  const team = await prisma.team.findFirstOrThrow({ where: { orgId: org.id, lowerName: 'level2' } });
  await prisma.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: repos.teamPrivate.id } });

  for (const repo of Object.values(repos)) {
    await t.context.services.activity.record({
      op: 'create_repo',
      actorId: owner.user.id,
      repo: { id: repo.id, ownerId: org.id, isPrivate: repo.isPrivate },
    });
  }
});
afterAll(() => t.close());

async function feed(caller: TestUser | null, query = ''): Promise<{ repo?: { name: string } }[]> {
  const req = t.request().get(`/api/v1/orgs/${org.name}/activities/feeds${query}`);
  return (await (caller ? req.set('Authorization', caller.auth) : req).expect(200)).body;
}

const repoNames = (entries: { repo?: { name: string } }[]) => entries.map((e) => e.repo?.name).sort();

describe('GET /orgs/{org}/activities/feeds (rule 20)', () => {
  it('shows the Activity record, newest first', async () => {
    const entries = await feed(owner);
    expect(entries[0]).toMatchObject({
      user_id: org.id,
      op_type: 'create_repo',
      act_user_id: owner.user.id,
      act_user: { login: owner.user.name },
      repo_id: repos.otherPrivate.id,
      repo: { name: 'other-private', full_name: `${org.name}/other-private`, private: true },
      is_private: true,
      ref_name: '',
      content: '',
    });
    const ids = entries.map((e) => (e as { id: number }).id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it.each([
    ['an anonymous caller', (): TestUser | null => null, ['open']],
    ['an outsider', (): TestUser | null => outsider, ['open']],
    ['a member without a team covering every repository', (): TestUser | null => member, ['open', 'team-private']],
    ['an owner', (): TestUser | null => owner, ['open', 'other-private', 'team-private']],
    ['an admin', (): TestUser | null => admin, ['open', 'other-private', 'team-private']],
  ] as const)('shows %s the activity they may see', async (_case, caller, expected) => {
    expect(repoNames(await feed(caller()))).toEqual(expected);
  });

  it('filters to one day with date', async () => {
    const { prisma } = t.context.db;
    const row = await prisma.action.findFirstOrThrow({ where: { userId: org.id, repoId: repos.open.id } });
    await prisma.action.update({ where: { id: row.id }, data: { createdAt: new Date('2021-03-04T12:00:00Z') } });
    expect(repoNames(await feed(owner, '?date=2021-03-04'))).toEqual(['open']);
    expect(await feed(owner, '?date=2021-03-05')).toEqual([]);
    expect(repoNames(await feed(owner))).toHaveLength(3);
  });

  it('leaves out actors who hide their activity, except for admins and themselves', async () => {
    const shy = await createTestUser(t, { fields: { hideActivity: true } });
    await addTestOrgMember(t, org, shy.user, { accessMode: 2 });
    await t.context.services.activity.record({
      op: 'star_repo',
      actorId: shy.user.id,
      repo: { id: repos.open.id, ownerId: org.id, isPrivate: false },
    });
    const ops = async (caller: TestUser | null) =>
      (await feed(caller)).filter((e) => (e as { op_type: string }).op_type === 'star_repo');
    expect(await ops(outsider)).toEqual([]);
    expect(await ops(owner)).toEqual([]);
    expect(await ops(admin)).toHaveLength(1);
    expect(await ops(shy)).toHaveLength(1);
  });

  it('pages with X-Total-Count', async () => {
    const res = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/activities/feeds?limit=1`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(3);
  });

  it('refuses a malformed date with 422 and answers 404 for an unknown organization', async () => {
    await t.request().get(`/api/v1/orgs/${org.name}/activities/feeds?date=yesterday`).expect(422);
    await t.request().get('/api/v1/orgs/no-such-org/activities/feeds').expect(404);
  });
});
