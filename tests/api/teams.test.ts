import type { components } from '../../generated/api.d.ts';
import type { Repository, User } from '../../src/db/prisma.ts';
import { DEFAULT_UNITS } from '../../src/domain/default-units.ts';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type CreateTeamOption = components['schemas']['CreateTeamOption'];
type ApiTeam = components['schemas']['Team'];

const ALL_UNITS = [
  'repo.code',
  'repo.issues',
  'repo.pulls',
  'repo.releases',
  'repo.wiki',
  'repo.ext_wiki',
  'repo.ext_issues',
  'repo.projects',
  'repo.packages',
  'repo.actions',
];

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** An org whose owner is `owner`, with its Owners team. */
async function makeOrg(owner: TestUser, visibility: 0 | 1 | 2 = 0): Promise<{ org: User; ownersTeamId: number }> {
  const org = await createTestOrg(t, owner.user, { visibility });
  const owners = await t.context.db.prisma.team.findFirstOrThrow({ where: { orgId: org.id, lowerName: 'owners' } });
  return { org, ownersTeamId: owners.id };
}

async function createTeam(org: User, owner: TestUser, body: Partial<CreateTeamOption> = {}): Promise<ApiTeam> {
  const res = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', owner.auth)
    .send({
      name: uniqueName('team'),
      permission: 'write',
      units: ['repo.code', 'repo.issues'],
      ...body,
    } satisfies CreateTeamOption)
    .expect(201);
  return res.body;
}

async function addMember(teamId: number, owner: TestUser, user: User): Promise<void> {
  await t.request().put(`/api/v1/teams/${teamId}/members/${user.name}`).set('Authorization', owner.auth).expect(204);
}

/** A repository row with the units a created repository has (no disk, no feed entry, no team rows). */
async function createRepo(org: User, options: { isPrivate?: boolean; name?: string } = {}): Promise<Repository> {
  const name = options.name ?? uniqueName('repo');
  return t.context.db.prisma.repository.create({
    data: {
      ownerId: org.id,
      ownerName: org.name,
      name,
      lowerName: name.toLowerCase(),
      isPrivate: options.isPrivate ?? true,
      units: { create: DEFAULT_UNITS.map((unit) => ({ type: unit.type, config: JSON.stringify(unit.config) })) },
    },
  });
}

async function storedTeam(id: number) {
  return t.context.db.prisma.team.findUniqueOrThrow({ where: { id }, include: { units: true } });
}

async function isOrgMember(org: User, user: User): Promise<boolean> {
  return (await t.context.db.prisma.orgUser.count({ where: { orgId: org.id, userId: user.id } })) === 1;
}

describe('team create: permission and units (organization rule 15)', () => {
  let owner: TestUser;
  let org: User;
  beforeAll(async () => {
    owner = await createTestUser(t);
    ({ org } = await makeOrg(owner));
  });

  const cases: Array<[string, Partial<CreateTeamOption>, string, Record<string, string>]> = [
    [
      'units at the requested level',
      { permission: 'read', units: ['repo.code', 'repo.pulls'] },
      'read',
      { 'repo.code': 'read', 'repo.pulls': 'read' },
    ],
    [
      'units_map lowers the level to its lowest level',
      { permission: 'write', units_map: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' } },
      'read',
      { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' },
    ],
    [
      'units_map wins over units',
      { permission: 'write', units: ['repo.wiki'], units_map: { 'repo.code': 'write' } },
      'write',
      { 'repo.code': 'write' },
    ],
    [
      'external units stay at read and do not set the level',
      { permission: 'read', units_map: { 'repo.code': 'write', 'repo.ext_wiki': 'write' } },
      'write',
      { 'repo.code': 'write', 'repo.ext_wiki': 'read' },
    ],
    [
      'unknown keys are ignored, keys are case-insensitive',
      { permission: 'write', units: ['REPO.CODE', 'repo.nothing'] },
      'write',
      { 'repo.code': 'write' },
    ],
    [
      'admin: every unit at admin, external ones at read',
      { permission: 'admin', units: ['repo.code'] },
      'admin',
      Object.fromEntries(ALL_UNITS.map((key) => [key, key.includes('ext_') ? 'read' : 'admin'])),
    ],
    [
      'a units_map all at admin makes an admin team',
      { units_map: { 'repo.code': 'admin', 'repo.pulls': 'admin' } },
      'admin',
      Object.fromEntries(ALL_UNITS.map((key) => [key, key.includes('ext_') ? 'read' : 'admin'])),
    ],
  ];

  it.each(cases)('%s', async (_name, body, permission, unitsMap) => {
    const team = await createTeam(org, owner, { permission: undefined, units: undefined, ...body });
    expect(team.permission).toBe(permission);
    expect(team.units_map).toEqual(unitsMap);
    expect(new Set(team.units)).toEqual(new Set(Object.keys(unitsMap)));
    expect(team.organization?.name).toBe(org.name);
    // What the repository permission check reads: one TeamUnit row per unit with its level.
    const stored = await storedTeam(team.id!);
    expect(stored.accessMode).toBe(['none', 'read', 'write', 'admin'].indexOf(permission));
    expect(stored.units).toHaveLength(Object.keys(unitsMap).length);
    for (const unit of stored.units) expect(unit.orgId).toBe(org.id);
  });

  it('stores description, includes_all_repositories and can_create_org_repo', async () => {
    const team = await createTeam(org, owner, {
      description: 'Docs people',
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    expect(team).toMatchObject({
      description: 'Docs people',
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
  });

  it.each([
    ['no units below admin', { permission: 'read', units: undefined }, /units permission should not be empty/],
    [
      'only unknown units',
      { permission: 'write', units: ['repo.nope'], units_map: { 'repo.none': 'read' } },
      /units permission should not be empty/,
    ],
    ['a name with spaces', { name: 'two words' }, /\[Name\]: AlphaDashDot/],
    ['the reserved name new', { name: 'new' }, /reserved/],
    ['an existing name (case-insensitive)', { name: 'OWNERS' }, /team already exists/],
    ['a description over 255 characters', { description: 'x'.repeat(256) }, /\[Description\]: MaxSize/],
    ['a description with a NUL character', { description: 'a\u0000b' }, /NUL characters are not allowed/],
  ])('answers 422 for %s', async (_name, body, message) => {
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/teams`)
      .set('Authorization', owner.auth)
      .send({ name: uniqueName('team'), permission: 'write', units: ['repo.code'], ...body })
      .expect(422);
    expect(res.body.message).toMatch(message);
  });

  it('answers 422 for a second team of the same name', async () => {
    const name = uniqueName('team');
    await createTeam(org, owner, { name });
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/teams`)
      .set('Authorization', owner.auth)
      .send({ name: name.toUpperCase(), permission: 'read', units: ['repo.code'] })
      .expect(422);
  });

  it('needs an owner: 403 for members, 403 for non-members, 404 for a missing org, 401 anonymous', async () => {
    const member = await createTestUser(t);
    const team = await createTeam(org, owner);
    await addMember(team.id!, owner, member.user);
    const outsider = await createTestUser(t);
    const body = { name: uniqueName('team'), permission: 'read', units: ['repo.code'] };
    await t.request().post(`/api/v1/orgs/${org.name}/teams`).set('Authorization', member.auth).send(body).expect(403);
    await t.request().post(`/api/v1/orgs/${org.name}/teams`).set('Authorization', outsider.auth).send(body).expect(403);
    await t
      .request()
      .post(`/api/v1/orgs/no-such-org-${uniqueName()}/teams`)
      .set('Authorization', owner.auth)
      .send(body)
      .expect(404);
    await t.request().post(`/api/v1/orgs/${org.name}/teams`).send(body).expect(401);
    const admin = await createTestUser(t, { admin: true });
    await t.request().post(`/api/v1/orgs/${org.name}/teams`).set('Authorization', admin.auth).send(body).expect(201);
  });
});

describe('team edit (organization rule 16)', () => {
  let owner: TestUser;
  let org: User;
  let ownersTeamId: number;
  beforeAll(async () => {
    owner = await createTestUser(t);
    ({ org, ownersTeamId } = await makeOrg(owner));
  });

  const patch = (id: number, body: object, who = owner) =>
    t.request().patch(`/api/v1/teams/${id}`).set('Authorization', who.auth).send(body);

  it('keeps the Owners team at owner level, on all repositories, allowed to create repositories', async () => {
    const res = await patch(ownersTeamId, {
      name: 'Owners',
      description: 'the bosses',
      permission: 'read',
      includes_all_repositories: false,
      can_create_org_repo: false,
      units: ['repo.code'],
    }).expect(200);
    expect(res.body).toMatchObject({
      name: 'Owners',
      description: 'the bosses',
      permission: 'owner',
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    expect(res.body.units).toEqual(ALL_UNITS);
    expect(Object.values(res.body.units_map)).toEqual(ALL_UNITS.map(() => 'owner'));
    const stored = await storedTeam(ownersTeamId);
    expect(stored.units.every((unit) => unit.accessMode === 4)).toBe(true);
  });

  it('refuses to rename the Owners team', async () => {
    const res = await patch(ownersTeamId, { name: 'Bosses' }).expect(422);
    expect(res.body.message).toMatch(/cannot be renamed/);
    expect((await storedTeam(ownersTeamId)).name).toBe('Owners');
  });

  const editCases: Array<[string, Partial<CreateTeamOption>, object, Partial<ApiTeam>]> = [
    [
      'an empty name and omitted fields change nothing',
      { description: 'keep me' },
      { name: '' },
      { description: 'keep me', permission: 'write', units_map: { 'repo.code': 'write', 'repo.issues': 'write' } },
    ],
    [
      'includes_all_repositories changes only with permission',
      {},
      { name: '', includes_all_repositories: true },
      { includes_all_repositories: false },
    ],
    [
      'permission and includes_all_repositories together; no units keep the current ones',
      {},
      { name: '', permission: 'read', includes_all_repositories: true },
      {
        permission: 'read',
        includes_all_repositories: true,
        units_map: { 'repo.code': 'write', 'repo.issues': 'write' },
      },
    ],
    [
      'permission with units re-levels them',
      {},
      { name: '', permission: 'read', units: ['repo.code'] },
      { permission: 'read', units: ['repo.code'], units_map: { 'repo.code': 'read' } },
    ],
    [
      'units_map without permission replaces units and keeps the level',
      {},
      { name: '', units_map: { 'repo.wiki': 'read' } },
      { permission: 'write', units_map: { 'repo.wiki': 'read' } },
    ],
    [
      'units_map with permission lowers the level',
      {},
      { name: '', permission: 'write', units_map: { 'repo.code': 'write', 'repo.pulls': 'read' } },
      { permission: 'read', units_map: { 'repo.code': 'write', 'repo.pulls': 'read' } },
    ],
    [
      'permission admin gives every unit',
      {},
      { name: '', permission: 'admin' },
      { permission: 'admin', units: ALL_UNITS },
    ],
    [
      'can_create_org_repo changes when sent',
      {},
      { name: '', can_create_org_repo: true },
      { can_create_org_repo: true },
    ],
  ];

  it.each(editCases)('%s', async (_name, createBody, editBody, expected) => {
    const team = await createTeam(org, owner, createBody);
    const res = await patch(team.id!, editBody).expect(200);
    expect(res.body).toMatchObject(expected);
    // Edit answers without the organization, as Forgejo does.
    expect(res.body.organization).toBeUndefined();
    const again = await t.request().get(`/api/v1/teams/${team.id}`).set('Authorization', owner.auth).expect(200);
    expect({ ...again.body, organization: undefined }).toEqual({ ...res.body, organization: undefined });
  });

  it("takes a body with only a description and keeps everything else (as Forgejo's own API test does)", async () => {
    const team = await createTeam(org, owner, {
      permission: 'write',
      units: undefined,
      units_map: { 'repo.code': 'write', 'repo.issues': 'write', 'repo.wiki': 'read' },
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    const res = await patch(team.id!, { description: 'only this changes' }).expect(200);
    expect(res.body).toEqual({ ...team, description: 'only this changes', organization: undefined });
    expect(res.body).toMatchObject({
      name: team.name,
      permission: 'read',
      includes_all_repositories: true,
      units_map: { 'repo.code': 'write', 'repo.issues': 'write', 'repo.wiki': 'read' },
    });
    const stored = await storedTeam(team.id!);
    expect(stored).toMatchObject({
      name: team.name,
      description: 'only this changes',
      includesAllRepositories: true,
      canCreateOrgRepo: true,
      accessMode: 1,
    });
    expect(stored.units.map((unit) => [unit.type, unit.accessMode]).sort()).toEqual([
      [1, 2],
      [2, 2],
      [5, 1],
    ]);
  });

  it('renames, and refuses a name another team has', async () => {
    const first = await createTeam(org, owner);
    const second = await createTeam(org, owner);
    const newName = uniqueName('Renamed');
    const res = await patch(first.id!, { name: newName }).expect(200);
    expect(res.body.name).toBe(newName);
    expect((await storedTeam(first.id!)).lowerName).toBe(newName.toLowerCase());
    await patch(second.id!, { name: newName.toLowerCase() }).expect(422);
    await patch(first.id!, { name: newName.toUpperCase() }).expect(200);
  });

  it('needs an org owner: a team member who is not one gets 404, as Forgejo answers outside the org path', async () => {
    const team = await createTeam(org, owner);
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    await patch(team.id!, { name: 'x' }, member).expect(404);
    await t.request().delete(`/api/v1/teams/${team.id}`).set('Authorization', member.auth).expect(404);
    expect((await t.context.db.prisma.team.findUniqueOrThrow({ where: { id: team.id! } })).name).toBe(team.name);
  });
});

describe('team access by id (BEHAVIOR §6)', () => {
  let owner: TestUser;
  let admin: TestUser;
  let teamMember: TestUser;
  let orgMember: TestUser;
  let outsider: TestUser;
  let org: User;
  let teamId: number;
  let repo: Repository;
  beforeAll(async () => {
    owner = await createTestUser(t);
    admin = await createTestUser(t, { admin: true });
    teamMember = await createTestUser(t);
    orgMember = await createTestUser(t);
    outsider = await createTestUser(t);
    ({ org } = await makeOrg(owner));
    teamId = (await createTeam(org, owner)).id!;
    await addMember(teamId, owner, teamMember.user);
    const otherTeam = await createTeam(org, owner);
    await addMember(otherTeam.id!, owner, orgMember.user);
    repo = await createRepo(org);
    await t
      .request()
      .put(`/api/v1/teams/${teamId}/repos/${org.name}/${repo.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
  });

  type Who = 'admin' | 'owner' | 'teamMember' | 'orgMember' | 'outsider';
  const who = (name: Who) => ({ admin, owner, teamMember, orgMember, outsider })[name];
  const reads: Array<[string, (id: number) => string]> = [
    ['GET /teams/{id}', (id) => `/api/v1/teams/${id}`],
    ['GET /teams/{id}/members', (id) => `/api/v1/teams/${id}/members`],
    ['GET /teams/{id}/repos', (id) => `/api/v1/teams/${id}/repos`],
    ['GET /teams/{id}/activities/feeds', (id) => `/api/v1/teams/${id}/activities/feeds`],
  ];
  const readExpectations: Array<[Who, number]> = [
    ['admin', 200],
    ['owner', 200],
    ['teamMember', 200],
    ['orgMember', 403],
    ['outsider', 404],
  ];

  for (const [label, path] of reads) {
    it.each(readExpectations)(`${label} as %s → %d`, async (name, status) => {
      await t.request().get(path(teamId)).set('Authorization', who(name).auth).expect(status);
    });
    it(`${label}: 404 for a missing team even anonymous, 401 anonymous otherwise`, async () => {
      await t
        .request()
        .get(path(2 ** 31 - 2))
        .expect(404);
      await t
        .request()
        .get(path(2 ** 31 - 2))
        .set('Authorization', owner.auth)
        .expect(404);
      await t.request().get(path(teamId)).expect(401);
    });
  }

  // A team member passes the team's guard, then misses org ownership: 404 in a team's path (Forgejo: reqOrgOwnership).
  it.each([
    ['admin', 204],
    ['owner', 204],
    ['teamMember', 404],
    ['orgMember', 403],
    ['outsider', 404],
  ] as Array<[Who, number]>)('member changes as %s → %d', async (name, status) => {
    const newcomer = await createTestUser(t);
    await t
      .request()
      .put(`/api/v1/teams/${teamId}/members/${newcomer.user.name}`)
      .set('Authorization', who(name).auth)
      .expect(status);
    await t
      .request()
      .delete(`/api/v1/teams/${teamId}/members/${newcomer.user.name}`)
      .set('Authorization', who(name).auth)
      .expect(status);
  });

  it.each([
    ['admin', 204],
    ['owner', 204],
    ['teamMember', 403],
    ['orgMember', 403],
    ['outsider', 404],
  ] as Array<[Who, number]>)('deleting a team as %s → %d', async (name, status) => {
    const team = await createTeam(org, owner);
    await t.request().delete(`/api/v1/teams/${team.id}`).set('Authorization', who(name).auth).expect(status);
  });

  it('includes the organization in GET /teams/{id}', async () => {
    const res = await t.request().get(`/api/v1/teams/${teamId}`).set('Authorization', teamMember.auth).expect(200);
    expect(res.body.organization).toMatchObject({
      id: org.id,
      name: org.name,
      username: org.name,
      visibility: 'public',
    });
  });

  it('refuses public-only tokens on a team of a private org', async () => {
    const privateOwner = await createTestUser(t);
    const { org: privateOrg, ownersTeamId } = await makeOrg(privateOwner, 2);
    const token = await createToken(t, privateOwner.user, 'public-only,read:organization');
    await t.request().get(`/api/v1/teams/${ownersTeamId}`).set('Authorization', `token ${token}`).expect(403);
    await t.request().get(`/api/v1/orgs/${privateOrg.name}/teams`).set('Authorization', `token ${token}`).expect(403);
  });
});

describe('org team lists and search', () => {
  let owner: TestUser;
  let member: TestUser;
  let org: User;
  let names: { alpha: string; beta: string; gamma: string };
  beforeAll(async () => {
    owner = await createTestUser(t);
    member = await createTestUser(t);
    ({ org } = await makeOrg(owner));
    const tag = uniqueName('');
    names = { alpha: `Alpha${tag}`, beta: `beta${tag}`, gamma: `Gamma${tag}` };
    const gamma = await createTeam(org, owner, { name: names.gamma, description: 'Frontend people' });
    await createTeam(org, owner, { name: names.beta, description: 'backend' });
    const alpha = await createTeam(org, owner, { name: names.alpha, description: 'Docs' });
    await addMember(alpha.id!, owner, member.user);
    await addMember(gamma.id!, owner, member.user);
  });

  it('lists teams by lower-cased name without the organization, with X-Total-Count', async () => {
    const res = await t.request().get(`/api/v1/orgs/${org.name}/teams`).set('Authorization', member.auth).expect(200);
    expect(res.body.map((team: ApiTeam) => team.name)).toEqual([names.alpha, names.beta, names.gamma, 'Owners']);
    expect(res.headers['x-total-count']).toBe('4');
    for (const team of res.body) expect(team.organization).toBeUndefined();
    const paged = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/teams?limit=1&page=2`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(paged.body.map((team: ApiTeam) => team.name)).toEqual([names.beta]);
  });

  it('requires org membership: 403 for others, 404 for an org they cannot see', async () => {
    const outsider = await createTestUser(t);
    await t.request().get(`/api/v1/orgs/${org.name}/teams`).set('Authorization', outsider.auth).expect(403);
    await t.request().get(`/api/v1/orgs/${org.name}/teams/search`).set('Authorization', outsider.auth).expect(403);
    const { org: privateOrg } = await makeOrg(owner, 2);
    await t.request().get(`/api/v1/orgs/${privateOrg.name}/teams`).set('Authorization', outsider.auth).expect(404);
    await t
      .request()
      .get(`/api/v1/orgs/${privateOrg.name}/teams/search`)
      .set('Authorization', outsider.auth)
      .expect(404);
    await t.request().get(`/api/v1/orgs/${privateOrg.name}/teams`).expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/teams`).expect(401);
  });

  const searches: Array<[string, string, 'member' | 'owner' | 'admin', (n: typeof names) => string[]]> = [
    ['no keyword: a member finds only their teams', '', 'member', (n) => [n.alpha, n.gamma]],
    ['the keyword is trimmed and matches descriptions by default', '?q=%20%20frontend%20', 'member', (n) => [n.gamma]],
    ['include_desc=false matches names only', '?q=frontend&include_desc=false', 'member', () => []],
    ['names match case-insensitively', '?q=ALPHA', 'member', (n) => [n.alpha]],
    ['an owner finds only the teams they are in', '', 'owner', () => ['Owners']],
    ['a site admin finds every team', '?q=a', 'admin', (n) => [n.alpha, n.beta, n.gamma]],
    ['descriptions match case-insensitively for admins', '?q=BACKEND', 'admin', (n) => [n.beta]],
  ];

  it.each(searches)('search: %s', async (_name, query, as, expected) => {
    const caller = as === 'admin' ? await createTestUser(t, { admin: true }) : as === 'owner' ? owner : member;
    const res = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/teams/search${query}`)
      .set('Authorization', caller.auth)
      .expect(200);
    expect(res.body.ok).toBe(true);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'ok']);
    expect(res.body.data.map((team: ApiTeam) => team.name)).toEqual(expected(names));
    expect(res.headers['x-total-count']).toBe(String(expected(names).length));
  });

  it('search pages with a Link header', async () => {
    const res = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/teams/search?limit=1`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(res.body.data.map((team: ApiTeam) => team.name)).toEqual([names.alpha]);
    expect(res.headers.link).toContain('rel="next"');
    expect(res.headers['x-total-count']).toBe('2');
  });

  it("GET /user/teams lists the caller's teams of every org with the organization", async () => {
    const { org: second } = await makeOrg(owner);
    const team = await createTeam(second, owner, { name: `aaa${uniqueName()}` });
    await addMember(team.id!, owner, member.user);
    const res = await t.request().get('/api/v1/user/teams').set('Authorization', member.auth).expect(200);
    expect(res.body.map((entry: ApiTeam) => [entry.name, entry.organization?.name])).toEqual([
      [team.name, second.name],
      [names.alpha, org.name],
      [names.gamma, org.name],
    ]);
    expect(res.headers['x-total-count']).toBe('3');
    await t.request().get('/api/v1/user/teams').expect(401);
  });
});

describe('team members', () => {
  let owner: TestUser;
  let org: User;
  let ownersTeamId: number;
  beforeAll(async () => {
    owner = await createTestUser(t);
    ({ org, ownersTeamId } = await makeOrg(owner));
  });

  it('adding makes the user a (private by default) org member; leaving the last team ends it', async () => {
    const first = await createTeam(org, owner);
    const second = await createTeam(org, owner);
    const user = (await createTestUser(t)).user;
    expect(await isOrgMember(org, user)).toBe(false);
    await addMember(first.id!, owner, user);
    await addMember(first.id!, owner, user); // again: no change
    await addMember(second.id!, owner, user);
    const membership = await t.context.db.prisma.orgUser.findFirstOrThrow({
      where: { orgId: org.id, userId: user.id },
    });
    expect(membership.isPublic).toBe(false);
    expect((await storedTeam(first.id!)).numMembers).toBe(1);

    await t
      .request()
      .delete(`/api/v1/teams/${first.id}/members/${user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await isOrgMember(org, user)).toBe(true);
    expect((await storedTeam(first.id!)).numMembers).toBe(0);
    await t
      .request()
      .delete(`/api/v1/teams/${second.id}/members/${user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await isOrgMember(org, user)).toBe(false);
  });

  it('lists members (X-Total-Count) and gets one; 404 for someone not in the team', async () => {
    const team = await createTeam(org, owner);
    const [a, b] = [await createTestUser(t), await createTestUser(t)];
    await addMember(team.id!, owner, a.user);
    await addMember(team.id!, owner, b.user);
    const list = await t.request().get(`/api/v1/teams/${team.id}/members`).set('Authorization', a.auth).expect(200);
    expect(list.body.map((user: { login: string }) => user.login).sort()).toEqual([a.user.name, b.user.name].sort());
    expect(list.headers['x-total-count']).toBe('2');
    const one = await t
      .request()
      .get(`/api/v1/teams/${team.id}/members/${b.user.name.toUpperCase()}`)
      .set('Authorization', a.auth)
      .expect(200);
    expect(one.body.login).toBe(b.user.name);
    await t
      .request()
      .get(`/api/v1/teams/${team.id}/members/${owner.user.name}`)
      .set('Authorization', a.auth)
      .expect(404);
    await t
      .request()
      .get(`/api/v1/teams/${team.id}/members/nobody-${uniqueName()}`)
      .set('Authorization', a.auth)
      .expect(404);
  });

  it('lists members only for org members and site admins (organization rule 17)', async () => {
    const team = await createTeam(org, owner);
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    // A team member whose org membership is gone (data from elsewhere) may see the team, not its members.
    await t.context.db.prisma.orgUser.deleteMany({ where: { orgId: org.id, userId: member.user.id } });
    await t.request().get(`/api/v1/teams/${team.id}`).set('Authorization', member.auth).expect(200);
    await t.request().get(`/api/v1/teams/${team.id}/members`).set('Authorization', member.auth).expect(404);
    const admin = await createTestUser(t, { admin: true });
    await t.request().get(`/api/v1/teams/${team.id}/members`).set('Authorization', admin.auth).expect(200);
  });

  it('refuses a user the organization blocks, and an organization', async () => {
    const team = await createTeam(org, owner);
    const blocked = await createTestUser(t);
    await t.context.db.prisma.userBlocking.create({ data: { blockerId: org.id, blockeeId: blocked.user.id } });
    const res = await t
      .request()
      .put(`/api/v1/teams/${team.id}/members/${blocked.user.name}`)
      .set('Authorization', owner.auth)
      .expect(403);
    expect(res.body.message).toMatch(/blocked/);
    expect(await isOrgMember(org, blocked.user)).toBe(false);
    const { org: otherOrg } = await makeOrg(owner);
    await t
      .request()
      .put(`/api/v1/teams/${team.id}/members/${otherOrg.name}`)
      .set('Authorization', owner.auth)
      .expect(422);
    await t
      .request()
      .put(`/api/v1/teams/${team.id}/members/nobody-${uniqueName()}`)
      .set('Authorization', owner.auth)
      .expect(404);
  });

  it('keeps the last member of the Owners team', async () => {
    const res = await t
      .request()
      .delete(`/api/v1/teams/${ownersTeamId}/members/${owner.user.name}`)
      .set('Authorization', owner.auth)
      .expect(422);
    expect(res.body.message).toMatch(/last member of the Owners team/);
    expect(await isOrgMember(org, owner.user)).toBe(true);
    const second = await createTestUser(t);
    await addMember(ownersTeamId, owner, second.user);
    expect((await storedTeam(ownersTeamId)).numMembers).toBe(2);
    await t
      .request()
      .delete(`/api/v1/teams/${ownersTeamId}/members/${owner.user.name}`)
      .set('Authorization', second.auth)
      .expect(204);
    expect(await isOrgMember(org, owner.user)).toBe(false);
    await t
      .request()
      .delete(`/api/v1/teams/${ownersTeamId}/members/${second.user.name}`)
      .set('Authorization', second.auth)
      .expect(422);
    // Hand the org back for the other tests.
    await addMember(ownersTeamId, second, owner.user);
  });

  it('deleting a team ends the memberships of users in no other team; the Owners team cannot be deleted', async () => {
    const doomed = await createTeam(org, owner);
    const other = await createTeam(org, owner);
    const [onlyHere, alsoElsewhere] = [(await createTestUser(t)).user, (await createTestUser(t)).user];
    await addMember(doomed.id!, owner, onlyHere);
    await addMember(doomed.id!, owner, alsoElsewhere);
    await addMember(other.id!, owner, alsoElsewhere);
    await t.request().delete(`/api/v1/teams/${doomed.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`/api/v1/teams/${doomed.id}`).set('Authorization', owner.auth).expect(404);
    expect(await isOrgMember(org, onlyHere)).toBe(false);
    expect(await isOrgMember(org, alsoElsewhere)).toBe(true);
    expect(await t.context.db.prisma.teamUnit.count({ where: { teamId: doomed.id } })).toBe(0);
    const res = await t.request().delete(`/api/v1/teams/${ownersTeamId}`).set('Authorization', owner.auth).expect(422);
    expect(res.body.message).toMatch(/Owners team/);
  });
});

describe('org membership visibility follows DEFAULT_ORG_MEMBER_VISIBLE', () => {
  let visibleApp: TestApp;
  beforeAll(async () => {
    visibleApp = await startTestApp({ ANVIL__service__DEFAULT_ORG_MEMBER_VISIBLE: 'true' });
  });
  afterAll(() => visibleApp.close());

  it('makes new members public when the setting is on', async () => {
    const owner = await createTestUser(visibleApp);
    const user = await createTestUser(visibleApp);
    const org = await createTestOrg(visibleApp, owner.user);
    const created = await visibleApp
      .request()
      .post(`/api/v1/orgs/${org.name}/teams`)
      .set('Authorization', owner.auth)
      .send({ name: 'devs', permission: 'read', units: ['repo.code'] })
      .expect(201);
    await visibleApp
      .request()
      .put(`/api/v1/teams/${created.body.id}/members/${user.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    const membership = await visibleApp.context.db.prisma.orgUser.findFirstOrThrow({
      where: { orgId: org.id, userId: user.user.id },
    });
    expect(membership.isPublic).toBe(true);
  });
});

describe('team repositories', () => {
  let owner: TestUser;
  let org: User;
  beforeAll(async () => {
    owner = await createTestUser(t);
    ({ org } = await makeOrg(owner));
  });

  const repoPath = (teamId: number, repo: { name: string }, orgName = org.name) =>
    `/api/v1/teams/${teamId}/repos/${orgName}/${repo.name}`;

  it('adds, lists, gets and removes a repository; the repository stays', async () => {
    const team = await createTeam(org, owner, { permission: 'write', units: ['repo.code'] });
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    const [repoB, repoA] = [
      await createRepo(org, { name: `b${uniqueName()}` }),
      await createRepo(org, { name: `a${uniqueName()}` }),
    ];
    for (const repo of [repoB, repoA, repoA])
      await t.request().put(repoPath(team.id!, repo)).set('Authorization', owner.auth).expect(204);
    expect((await storedTeam(team.id!)).numRepos).toBe(2);

    const list = await t.request().get(`/api/v1/teams/${team.id}/repos`).set('Authorization', member.auth).expect(200);
    expect(list.body.map((repo: { name: string }) => repo.name)).toEqual([repoA.name, repoB.name]);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body[0]).toMatchObject({
      full_name: `${org.name}/${repoA.name}`,
      private: true,
      owner: { login: org.name },
      permissions: { admin: false, push: true, pull: true },
    });

    const one = await t.request().get(repoPath(team.id!, repoA)).set('Authorization', member.auth).expect(200);
    expect(one.body.id).toBe(repoA.id);

    await t.request().delete(repoPath(team.id!, repoB)).set('Authorization', owner.auth).expect(204);
    expect((await storedTeam(team.id!)).numRepos).toBe(1);
    await t.request().get(repoPath(team.id!, repoB)).set('Authorization', member.auth).expect(404);
    expect(await t.context.db.prisma.repository.count({ where: { id: repoB.id } })).toBe(1);
  });

  it('gets 404 for a repository outside the org or outside the team', async () => {
    const team = await createTeam(org, owner);
    const notInTeam = await createRepo(org);
    const { org: otherOrg } = await makeOrg(owner);
    const elsewhere = await createRepo(otherOrg);
    await t.request().get(repoPath(team.id!, notInTeam)).set('Authorization', owner.auth).expect(404);
    await t
      .request()
      .get(repoPath(team.id!, { name: `missing${uniqueName()}` }))
      .set('Authorization', owner.auth)
      .expect(404);
    // The {org} segment is not used: the name is looked up in the team's organization.
    await t
      .request()
      .get(repoPath(team.id!, elsewhere, otherOrg.name))
      .set('Authorization', owner.auth)
      .expect(404);
    await t
      .request()
      .put(repoPath(team.id!, elsewhere, otherOrg.name))
      .set('Authorization', owner.auth)
      .expect(404);
  });

  it('needs admin access on the repository to add or remove it', async () => {
    const adminTeam = await createTeam(org, owner, { permission: 'admin' });
    const writeTeam = await createTeam(org, owner, { permission: 'write', units: ['repo.code'] });
    const repo = await createRepo(org);
    const other = await createRepo(org);
    await t.request().put(repoPath(adminTeam.id!, repo)).set('Authorization', owner.auth).expect(204);
    const writer = await createTestUser(t);
    const teamAdmin = await createTestUser(t);
    await addMember(writeTeam.id!, owner, writer.user);
    await addMember(writeTeam.id!, owner, teamAdmin.user);
    await addMember(adminTeam.id!, owner, teamAdmin.user);

    const res = await t.request().put(repoPath(writeTeam.id!, repo)).set('Authorization', writer.auth).expect(403);
    expect(res.body.message).toMatch(/admin-level access/);
    // Admin on `repo` through the admin team, so it may be shared with the write team; not `other`.
    await t.request().put(repoPath(writeTeam.id!, repo)).set('Authorization', teamAdmin.auth).expect(204);
    await t.request().put(repoPath(writeTeam.id!, other)).set('Authorization', teamAdmin.auth).expect(403);
    await t.request().delete(repoPath(writeTeam.id!, repo)).set('Authorization', writer.auth).expect(403);
    await t.request().delete(repoPath(writeTeam.id!, repo)).set('Authorization', teamAdmin.auth).expect(204);
    const siteAdmin = await createTestUser(t, { admin: true });
    await t.request().put(repoPath(writeTeam.id!, other)).set('Authorization', siteAdmin.auth).expect(204);
  });

  it('decides admin access and the listed permissions with the repository permission rule: collaborations count', async () => {
    const team = await createTeam(org, owner, { permission: 'read', units: ['repo.code'] });
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    const repo = await createRepo(org);
    await t.request().put(repoPath(team.id!, repo)).set('Authorization', owner.auth).expect(204);
    const listed = async () =>
      (await t.request().get(repoPath(team.id!, repo)).set('Authorization', member.auth).expect(200)).body.permissions;
    expect(await listed()).toEqual({ admin: false, push: false, pull: true });
    await t.request().delete(repoPath(team.id!, repo)).set('Authorization', member.auth).expect(403);

    // An admin collaborator (as the creator of an org repository becomes) has admin access to the repository.
    await t.context.db.prisma.collaboration.create({
      data: { repoId: repo.id, userId: member.user.id, accessMode: 3 },
    });
    expect(await listed()).toEqual({ admin: true, push: true, pull: true });
    const list = await t.request().get(`/api/v1/teams/${team.id}/repos`).set('Authorization', member.auth).expect(200);
    expect(list.body[0].permissions).toEqual({ admin: true, push: true, pull: true });
    const repoGet = await t
      .request()
      .get(`/api/v1/repos/${org.name}/${repo.name}`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(list.body[0]).toEqual(repoGet.body);
    await t.request().delete(repoPath(team.id!, repo)).set('Authorization', member.auth).expect(204);
  });

  it('an includes-all team covers every org repository, also later ones, without a row per repository', async () => {
    const team = await createTeam(org, owner, {
      permission: 'read',
      units: ['repo.code'],
      includes_all_repositories: true,
    });
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    const before = await t.context.db.prisma.repository.count({ where: { ownerId: org.id } });
    const later = await createRepo(org);
    const list = await t
      .request()
      .get(`/api/v1/teams/${team.id}/repos?limit=50`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(list.headers['x-total-count']).toBe(String(before + 1));
    expect(list.body.map((repo: { id: number }) => repo.id)).toContain(later.id);
    expect(list.body.find((repo: { id: number }) => repo.id === later.id).permissions).toEqual({
      admin: false,
      push: false,
      pull: true,
    });
    await t.request().get(repoPath(team.id!, later)).set('Authorization', member.auth).expect(200);
    expect(await t.context.db.prisma.teamRepo.count({ where: { teamId: team.id } })).toBe(0);

    // Adding is a no-op; removing one repository is refused while the team covers all.
    await t.request().put(repoPath(team.id!, later)).set('Authorization', owner.auth).expect(204);
    expect(await t.context.db.prisma.teamRepo.count({ where: { teamId: team.id } })).toBe(0);
    const refused = await t.request().delete(repoPath(team.id!, later)).set('Authorization', owner.auth).expect(422);
    expect(refused.body.message).toMatch(/includes_all_repositories/);

    // Leaving "all repositories" keeps the repositories the team had.
    await t
      .request()
      .patch(`/api/v1/teams/${team.id}`)
      .set('Authorization', owner.auth)
      .send({ name: '', permission: 'read', includes_all_repositories: false })
      .expect(200);
    const stored = await storedTeam(team.id!);
    expect(stored.numRepos).toBe(before + 1);
    expect(await t.context.db.prisma.teamRepo.count({ where: { teamId: team.id } })).toBe(before + 1);
    await t.request().delete(repoPath(team.id!, later)).set('Authorization', owner.auth).expect(204);
    // And back: the flag replaces the rows.
    await t
      .request()
      .patch(`/api/v1/teams/${team.id}`)
      .set('Authorization', owner.auth)
      .send({ name: '', permission: 'read', includes_all_repositories: true })
      .expect(200);
    expect(await t.context.db.prisma.teamRepo.count({ where: { teamId: team.id } })).toBe(0);
  });

  it('keeps the data the repository permission check reads: unit levels per team, TeamRepo rows per explicit repository', async () => {
    const team = await createTeam(org, owner, {
      permission: 'write',
      units_map: { 'repo.code': 'write', 'repo.issues': 'read' },
    });
    const repo = await createRepo(org);
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    await t.request().put(repoPath(team.id!, repo)).set('Authorization', owner.auth).expect(204);
    const rows = await t.context.db.prisma.team.findMany({
      where: { orgId: org.id, members: { some: { userId: member.user.id } } },
      include: { units: { orderBy: { type: 'asc' } }, repos: true },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ accessMode: 1, includesAllRepositories: false });
    expect(rows[0].units.map((unit) => [unit.type, unit.accessMode])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(rows[0].repos.map((row) => [row.repoId, row.orgId])).toEqual([[repo.id, org.id]]);
  });
});

describe('team activity feed', () => {
  it("lists private actions on the team's repositories only, newest first, filtered by day", async () => {
    const owner = await createTestUser(t);
    const { org } = await makeOrg(owner);
    const team = await createTeam(org, owner);
    const member = await createTestUser(t);
    await addMember(team.id!, owner, member.user);
    const [inTeam, outside] = [await createRepo(org), await createRepo(org)];
    await t
      .request()
      .put(`/api/v1/teams/${team.id}/repos/${org.name}/${inTeam.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    const hidden = await createTestUser(t, { fields: { hideActivity: true } });
    const action = (repo: Repository, actUserId: number, createdAt: string, opType = 1) => ({
      userId: org.id,
      opType,
      actUserId,
      repoId: repo.id,
      isPrivate: true,
      createdAt: new Date(createdAt),
    });
    await t.context.db.prisma.action.createMany({
      data: [
        action(inTeam, owner.user.id, '2024-03-01T10:00:00Z'),
        action(inTeam, owner.user.id, '2024-03-02T09:00:00Z', 5),
        action(outside, owner.user.id, '2024-03-02T10:00:00Z'),
        action(inTeam, hidden.user.id, '2024-03-02T11:00:00Z'),
        { ...action(inTeam, owner.user.id, '2024-03-02T12:00:00Z'), userId: owner.user.id },
      ],
    });
    const res = await t
      .request()
      .get(`/api/v1/teams/${team.id}/activities/feeds`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(res.body.map((entry: { op_type: string; created: string }) => [entry.op_type, entry.created])).toEqual([
      ['commit_repo', '2024-03-02T09:00:00Z'],
      ['create_repo', '2024-03-01T10:00:00Z'],
    ]);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body[0]).toMatchObject({
      is_private: true,
      repo_id: inTeam.id,
      repo: { id: inTeam.id },
      act_user: { login: owner.user.name },
      user_id: org.id,
    });
    // The full repository record, with no permission for anyone (as Forgejo's feeds).
    expect(res.body[0].repo).toMatchObject({
      has_issues: true,
      default_merge_style: 'merge',
      permissions: { admin: false, push: false, pull: false },
    });

    const day = await t
      .request()
      .get(`/api/v1/teams/${team.id}/activities/feeds?date=2024-03-01`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(day.body.map((entry: { created: string }) => entry.created)).toEqual(['2024-03-01T10:00:00Z']);

    // Site admins also see actors who hide their activity.
    const admin = await createTestUser(t, { admin: true });
    const all = await t
      .request()
      .get(`/api/v1/teams/${team.id}/activities/feeds`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(all.body).toHaveLength(3);
  });
});

describe('odd names in paths', () => {
  it.each(['%00', 'a%00b'])('answers 404, not 500, for %s', async (name) => {
    const owner = await createTestUser(t);
    const { org, ownersTeamId } = await makeOrg(owner);
    await t.request().get(`/api/v1/orgs/${name}/teams`).set('Authorization', owner.auth).expect(404);
    await t.request().put(`/api/v1/teams/${ownersTeamId}/members/${name}`).set('Authorization', owner.auth).expect(404);
    await t
      .request()
      .get(`/api/v1/teams/${ownersTeamId}/repos/${org.name}/${name}`)
      .set('Authorization', owner.auth)
      .expect(404);
  });
});
