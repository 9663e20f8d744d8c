// Concurrent requests over one listening server: same-name creates, membership changes, deletes, and deletes
// racing updates. Each race has exactly one winner, never answers 5xx, and leaves counters equal to the rows.
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const PARALLEL = 8;

let t: TestApp;
let server: Server;
let base: string;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  admin = await createTestUser(t, { admin: true });
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface Answer {
  status: number;
  body: unknown;
}

async function call(
  method: string,
  url: string,
  auth: string,
  body?: unknown,
  contentType = 'application/json',
): Promise<Answer> {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Sends `count` copies of one request at once. */
const race = (count: number, send: (i: number) => Promise<Answer>) =>
  Promise.all(Array.from({ length: count }, (_, i) => send(i)));

/** Statuses sorted, for comparing outcomes without caring which request won. */
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status).sort((a, b) => a - b);

function expectNoServerErrors(answers: Answer[]): void {
  const failures = answers.filter((answer) => answer.status >= 500);
  expect(failures).toEqual([]);
}

function expectOneWinner(answers: Answer[], won: number, lost: number): void {
  expectNoServerErrors(answers);
  expect(statuses(answers)).toEqual([won, ...Array<number>(answers.length - 1).fill(lost)].sort((a, b) => a - b));
}

/** The stored counters of an owner and its teams equal their rows. */
async function expectCountersMatchRows(ownerId: number): Promise<void> {
  const { prisma } = t.context.db;
  const owner = await prisma.user.findUniqueOrThrow({ where: { id: ownerId } });
  expect(owner.numRepos).toBe(await prisma.repository.count({ where: { ownerId } }));
  for (const team of await prisma.team.findMany({ where: { orgId: ownerId } })) {
    expect({ team: team.name, members: team.numMembers }).toEqual({
      team: team.name,
      members: await prisma.teamUser.count({ where: { teamId: team.id } }),
    });
    if (!team.includesAllRepositories) {
      expect({ team: team.name, repos: team.numRepos }).toEqual({
        team: team.name,
        repos: await prisma.teamRepo.count({ where: { teamId: team.id } }),
      });
    }
  }
  // An org member is a member of at least one of its teams, and the other way round.
  const members = (await prisma.orgUser.findMany({ where: { orgId: ownerId }, select: { userId: true } }))
    .map((row) => row.userId)
    .sort();
  const inTeams = [
    ...new Set(
      (await prisma.teamUser.findMany({ where: { orgId: ownerId }, select: { userId: true } })).map(
        (row) => row.userId,
      ),
    ),
  ].sort();
  expect(members).toEqual(inTeams);
}

describe('same-name creates: one is created, the others are refused as Forgejo refuses a taken name', () => {
  it('organizations: one 201, the others 422, one row', async () => {
    const name = uniqueName('org');
    const answers = await race(PARALLEL, () => call('POST', '/api/v1/orgs', admin.auth, { username: name }));
    expectOneWinner(answers, 201, 422);
    expect(await t.context.db.prisma.user.count({ where: { lowerName: name } })).toBe(1);
  });

  it('repositories of a user: one 201, the others 409, one row, one directory, numRepos counted once', async () => {
    const alice = await createTestUser(t);
    const name = uniqueName('repo');
    const answers = await race(PARALLEL, () =>
      call('POST', '/api/v1/user/repos', alice.auth, { name, auto_init: true }),
    );
    expectOneWinner(answers, 201, 409);
    expect(await t.context.db.prisma.repository.count({ where: { ownerId: alice.user.id } })).toBe(1);
    expect(fs.readdirSync(path.join(t.context.settings.repository.ROOT, alice.user.lowerName))).toEqual([
      `${name}.git`,
    ]);
    await expectCountersMatchRows(alice.user.id);
  });

  it('repositories of an organization: one 201, the others 409, counters match', async () => {
    const org = await createTestOrg(t, admin.user);
    const name = uniqueName('repo');
    const answers = await race(PARALLEL, () => call('POST', `/api/v1/orgs/${org.name}/repos`, admin.auth, { name }));
    expectOneWinner(answers, 201, 409);
    await expectCountersMatchRows(org.id);
  });

  it('teams: one 201, the others 422, one row', async () => {
    const org = await createTestOrg(t, admin.user);
    const name = uniqueName('team');
    const answers = await race(PARALLEL, () =>
      call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, { name, permission: 'read', units: ['repo.code'] }),
    );
    expectOneWinner(answers, 201, 422);
    expect(await t.context.db.prisma.team.count({ where: { orgId: org.id, lowerName: name } })).toBe(1);
  });

  it('Actions variables: one 204 (as Forgejo answers a create), the others 409', async () => {
    const org = await createTestOrg(t, admin.user);
    const answers = await race(PARALLEL, () =>
      call('POST', `/api/v1/orgs/${org.name}/actions/variables/REGION`, admin.auth, { value: 'eu' }),
    );
    expectOneWinner(answers, 204, 409);
  });

  it('a generic package file: one 201, the others 409, one file row', async () => {
    const bob = await createTestUser(t);
    const url = `/api/packages/${bob.user.name}/generic/tool/1.0.0/tool.bin`;
    const answers = await race(PARALLEL, (i) =>
      call('PUT', url, bob.auth, Buffer.from(`bytes of upload ${i}`), 'application/octet-stream'),
    );
    expectOneWinner(answers, 201, 409);
    const { prisma } = t.context.db;
    expect(await prisma.package.count({ where: { ownerId: bob.user.id } })).toBe(1);
    expect(await prisma.packageVersion.count({ where: { package: { ownerId: bob.user.id } } })).toBe(1);
    expect(await prisma.packageFile.count({ where: { version: { package: { ownerId: bob.user.id } } } })).toBe(1);
  });

  it('org labels and hooks have no unique name in Forgejo: every create succeeds with its own id', async () => {
    const org = await createTestOrg(t, admin.user);
    const labels = await race(PARALLEL, () =>
      call('POST', `/api/v1/orgs/${org.name}/labels`, admin.auth, { name: 'bug', color: '#ee0701' }),
    );
    expect(statuses(labels)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(labels.map((answer) => (answer.body as { id: number }).id)).size).toBe(PARALLEL);
    const hook = {
      type: 'forgejo',
      config: { url: 'https://hooks.example.com/in', content_type: 'json' },
      events: ['push'],
    };
    const hooks = await race(PARALLEL, () => call('POST', `/api/v1/orgs/${org.name}/hooks`, admin.auth, hook));
    expect(statuses(hooks)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(hooks.map((answer) => (answer.body as { id: number }).id)).size).toBe(PARALLEL);
  });

  it('commit statuses posted at once on one commit: each 201, each with its own index', async () => {
    const name = uniqueName('statuses');
    const created = await call('POST', '/api/v1/user/repos', admin.auth, { name, auto_init: true });
    expect(created.status).toBe(201);
    const branch = await call('GET', `/api/v1/repos/${admin.user.name}/${name}/branches/main`, admin.auth);
    const sha = (branch.body as { commit: { id: string } }).commit.id;
    const answers = await race(PARALLEL, (i) =>
      call('POST', `/api/v1/repos/${admin.user.name}/${name}/statuses/${sha}`, admin.auth, {
        state: 'success',
        context: `ci/${i % 3}`,
      }),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(201));
    const rows = await t.context.db.prisma.commitStatus.findMany({
      where: { sha },
      select: { index: true, createdAt: true },
    });
    expect(rows.map((row) => row.index).sort((a, b) => a - b)).toEqual(
      Array.from({ length: PARALLEL }, (_, i) => i + 1),
    );
    // Stored in UTC, as every other timestamp: a zone slip would move them by hours.
    for (const row of rows) expect(Math.abs(row.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('issues opened at once in one repository: each 201, each with its own number', async () => {
    const name = uniqueName('issues');
    expect((await call('POST', '/api/v1/user/repos', admin.auth, { name })).status).toBe(201);
    const answers = await race(PARALLEL, (i) =>
      call('POST', `/api/v1/repos/${admin.user.name}/${name}/issues`, admin.auth, { title: `issue ${i}` }),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(201));
    const numbers = answers.map((answer) => (answer.body as { number: number }).number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: PARALLEL }, (_, i) => i + 1));
  });

  it('different repositories at once: each created, numRepos equals the rows', async () => {
    const org = await createTestOrg(t, admin.user);
    const answers = await race(PARALLEL, (i) =>
      call('POST', `/api/v1/orgs/${org.name}/repos`, admin.auth, { name: `repo-${i}` }),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(201));
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } });
    expect(stored.numRepos).toBe(PARALLEL);
    await expectCountersMatchRows(org.id);
  });
});

describe('concurrent membership changes', () => {
  async function orgWithTeam() {
    const org = await createTestOrg(t, admin.user);
    const team = (
      await call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, {
        name: 'devs',
        permission: 'write',
        units: ['repo.code'],
      })
    ).body as { id: number };
    return { org, teamId: team.id };
  }

  it('adding the same user to a team many times at once: all 204, one membership', async () => {
    const { org, teamId } = await orgWithTeam();
    const carol = await createTestUser(t);
    const answers = await race(PARALLEL, () =>
      call('PUT', `/api/v1/teams/${teamId}/members/${carol.user.name}`, admin.auth),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(204));
    const { prisma } = t.context.db;
    expect(await prisma.teamUser.count({ where: { teamId, userId: carol.user.id } })).toBe(1);
    expect(await prisma.orgUser.count({ where: { orgId: org.id, userId: carol.user.id } })).toBe(1);
    await expectCountersMatchRows(org.id);
  });

  it('removing the same user many times at once: all 204, the membership and the org membership gone', async () => {
    const { org, teamId } = await orgWithTeam();
    const dave = await createTestUser(t);
    await call('PUT', `/api/v1/teams/${teamId}/members/${dave.user.name}`, admin.auth);
    const answers = await race(PARALLEL, () =>
      call('DELETE', `/api/v1/teams/${teamId}/members/${dave.user.name}`, admin.auth),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(204));
    expect(await t.context.db.prisma.orgUser.count({ where: { orgId: org.id, userId: dave.user.id } })).toBe(0);
    await expectCountersMatchRows(org.id);
  });

  it('adds and removes of the same user interleaved: no 5xx, counters and org membership match the rows', async () => {
    const { org, teamId } = await orgWithTeam();
    const erin = await createTestUser(t);
    for (let round = 0; round < 3; round++) {
      const answers = await race(PARALLEL * 2, (i) =>
        call(i % 2 ? 'DELETE' : 'PUT', `/api/v1/teams/${teamId}/members/${erin.user.name}`, admin.auth),
      );
      expect(statuses(answers)).toEqual(Array(PARALLEL * 2).fill(204));
      await expectCountersMatchRows(org.id);
    }
  });

  it('adding different users at once: every one a member, num_members equals the rows', async () => {
    const { org, teamId } = await orgWithTeam();
    const users = await Promise.all(Array.from({ length: PARALLEL }, () => createTestUser(t)));
    const answers = await race(PARALLEL, (i) =>
      call('PUT', `/api/v1/teams/${teamId}/members/${users[i].user.name}`, admin.auth),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(204));
    const team = await call('GET', `/api/v1/teams/${teamId}`, admin.auth);
    expect(team.body).toMatchObject({ id: teamId });
    expect(await t.context.db.prisma.team.findUniqueOrThrow({ where: { id: teamId } })).toMatchObject({
      numMembers: PARALLEL,
    });
    expect(await t.context.db.prisma.orgUser.count({ where: { orgId: org.id } })).toBe(PARALLEL + 1);
    await expectCountersMatchRows(org.id);

    const removals = await race(PARALLEL, (i) =>
      call('DELETE', `/api/v1/teams/${teamId}/members/${users[i].user.name}`, admin.auth),
    );
    expect(statuses(removals)).toEqual(Array(PARALLEL).fill(204));
    expect(await t.context.db.prisma.team.findUniqueOrThrow({ where: { id: teamId } })).toMatchObject({
      numMembers: 0,
    });
    await expectCountersMatchRows(org.id);
  });
  it('adding one user to several teams of an organization at once: one org membership', async () => {
    const org = await createTestOrg(t, admin.user);
    const teamIds: number[] = [];
    for (let i = 0; i < PARALLEL; i++) {
      teamIds.push(
        (
          (
            await call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, {
              name: `team${i}`,
              permission: 'read',
              units: ['repo.code'],
            })
          ).body as { id: number }
        ).id,
      );
    }
    const judy = await createTestUser(t);
    const answers = await race(PARALLEL, (i) =>
      call('PUT', `/api/v1/teams/${teamIds[i]}/members/${judy.user.name}`, admin.auth),
    );
    expect(statuses(answers)).toEqual(Array(PARALLEL).fill(204));
    expect(await t.context.db.prisma.orgUser.count({ where: { orgId: org.id, userId: judy.user.id } })).toBe(1);
    await expectCountersMatchRows(org.id);

    // Leaving every team at once ends the org membership exactly when the last one is left.
    const leaves = await race(PARALLEL, (i) =>
      call('DELETE', `/api/v1/teams/${teamIds[i]}/members/${judy.user.name}`, admin.auth),
    );
    expect(statuses(leaves)).toEqual(Array(PARALLEL).fill(204));
    expect(await t.context.db.prisma.orgUser.count({ where: { orgId: org.id, userId: judy.user.id } })).toBe(0);
    await expectCountersMatchRows(org.id);
  });

  it('removing a member from the organization many times at once: all 204, team counts decremented once', async () => {
    const org = await createTestOrg(t, admin.user);
    const team = (
      await call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, {
        name: 'devs',
        permission: 'read',
        units: ['repo.code'],
      })
    ).body as { id: number };
    const kim = await createTestUser(t);
    const stays = await createTestUser(t);
    for (const user of [kim, stays])
      await call('PUT', `/api/v1/teams/${team.id}/members/${user.user.name}`, admin.auth);
    const answers = await race(PARALLEL, () =>
      call('DELETE', `/api/v1/orgs/${org.name}/members/${kim.user.name}`, admin.auth),
    );
    expectNoServerErrors(answers);
    expect(answers.filter((answer) => answer.status === 204).length).toBeGreaterThanOrEqual(1);
    expect(await t.context.db.prisma.team.findUniqueOrThrow({ where: { id: team.id } })).toMatchObject({
      numMembers: 1,
    });
    await expectCountersMatchRows(org.id);
  });

  it('two owners removing each other at once: the organization keeps an owner', async () => {
    const org = await createTestOrg(t, admin.user);
    const owners = (await call('GET', `/api/v1/orgs/${org.name}/teams`, admin.auth)).body as Array<{
      id: number;
      name: string;
    }>;
    const ownersTeam = owners.find((team) => team.name === 'Owners')!;
    const second = await createTestUser(t);
    await call('PUT', `/api/v1/teams/${ownersTeam.id}/members/${second.user.name}`, admin.auth);
    const answers = await Promise.all([
      call('DELETE', `/api/v1/teams/${ownersTeam.id}/members/${admin.user.name}`, second.auth),
      call('DELETE', `/api/v1/teams/${ownersTeam.id}/members/${second.user.name}`, admin.auth),
    ]);
    expectNoServerErrors(answers);
    expect(await t.context.db.prisma.teamUser.count({ where: { teamId: ownersTeam.id } })).toBeGreaterThanOrEqual(1);
    await expectCountersMatchRows(org.id);
  });
});

describe('concurrent deletes of the same thing: one 204, the others 404', () => {
  it('an organization', async () => {
    const org = await createTestOrg(t, admin.user);
    const answers = await race(PARALLEL, () => call('DELETE', `/api/v1/orgs/${org.name}`, admin.auth));
    expectOneWinner(answers, 204, 404);
    expect(await t.context.db.prisma.user.count({ where: { id: org.id } })).toBe(0);
  });

  it('a repository: its owner counts it once', async () => {
    const frank = await createTestUser(t);
    const keep = uniqueName('keep');
    const gone = uniqueName('gone');
    for (const name of [keep, gone])
      expect((await call('POST', '/api/v1/user/repos', frank.auth, { name })).status).toBe(201);
    const answers = await race(PARALLEL, () => call('DELETE', `/api/v1/repos/${frank.user.name}/${gone}`, frank.auth));
    expectOneWinner(answers, 204, 404);
    await expectCountersMatchRows(frank.user.id);
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, frank.user.lowerName, `${gone}.git`))).toBe(
      false,
    );
  });

  it('a team: its members leave the organization once', async () => {
    const org = await createTestOrg(t, admin.user);
    const grace = await createTestUser(t);
    const team = (
      await call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, {
        name: 'doomed',
        permission: 'read',
        units: ['repo.code'],
      })
    ).body as { id: number };
    await call('PUT', `/api/v1/teams/${team.id}/members/${grace.user.name}`, admin.auth);
    const answers = await race(PARALLEL, () => call('DELETE', `/api/v1/teams/${team.id}`, admin.auth));
    expectOneWinner(answers, 204, 404);
    await expectCountersMatchRows(org.id);
  });
});

describe('a delete racing an update: one consistent outcome, never 5xx', () => {
  // RACE_ROUNDS=40 makes a rare interleaving likely enough to reproduce.
  const ROUNDS = Number(process.env.RACE_ROUNDS ?? 4);

  it('a repository edited while it is deleted', async () => {
    const henry = await createTestUser(t);
    for (let round = 0; round < ROUNDS; round++) {
      const name = uniqueName('repo');
      expect((await call('POST', '/api/v1/user/repos', henry.auth, { name })).status).toBe(201);
      const [edit, remove] = await Promise.all([
        call('PATCH', `/api/v1/repos/${henry.user.name}/${name}`, henry.auth, {
          description: 'edited',
          website: 'https://example.com',
        }),
        call('DELETE', `/api/v1/repos/${henry.user.name}/${name}`, henry.auth),
      ]);
      expectNoServerErrors([edit, remove]);
      expect(remove.status).toBe(204);
      expect([200, 404]).toContain(edit.status);
      expect((await call('GET', `/api/v1/repos/${henry.user.name}/${name}`, henry.auth)).status).toBe(404);
    }
    await expectCountersMatchRows(henry.user.id);
  });

  it('an organization edited while it is deleted', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const org = await createTestOrg(t, admin.user);
      const [edit, remove] = await Promise.all([
        call('PATCH', `/api/v1/orgs/${org.name}`, admin.auth, { description: 'edited', location: 'here' }),
        call('DELETE', `/api/v1/orgs/${org.name}`, admin.auth),
      ]);
      expectNoServerErrors([edit, remove]);
      expect(remove.status).toBe(204);
      expect([200, 404]).toContain(edit.status);
      expect((await call('GET', `/api/v1/orgs/${org.name}`, admin.auth)).status).toBe(404);
    }
  });

  it('an organization deleted while a repository is created in it: one of them wins, nothing is left half-made', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const org = await createTestOrg(t, admin.user);
      const [create, remove] = await Promise.all([
        call('POST', `/api/v1/orgs/${org.name}/repos`, admin.auth, { name: 'contested' }),
        call('DELETE', `/api/v1/orgs/${org.name}`, admin.auth),
      ]);
      expectNoServerErrors([create, remove]);
      // Either the repository came first and the organization, which still owns it, stays; or the deletion won.
      expect([
        [201, 422],
        [404, 204],
      ]).toContainEqual([create.status, remove.status]);
      const directory = path.join(t.context.settings.repository.ROOT, org.lowerName, 'contested.git');
      expect(fs.existsSync(directory)).toBe(create.status === 201);
      if (create.status === 201) await expectCountersMatchRows(org.id);
    }
  });

  it('a user deleted while a repository is created for them: one of them wins, nothing is left half-made', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const owner = await createTestUser(t);
      const [create, remove] = await Promise.all([
        call('POST', `/api/v1/admin/users/${owner.user.name}/repos`, admin.auth, { name: 'contested' }),
        call('DELETE', `/api/v1/admin/users/${owner.user.name}`, admin.auth),
      ]);
      expectNoServerErrors([create, remove]);
      expect([
        [201, 422],
        [404, 204],
      ]).toContainEqual([create.status, remove.status]);
      const directory = path.join(t.context.settings.repository.ROOT, owner.user.lowerName, 'contested.git');
      expect(fs.existsSync(directory)).toBe(create.status === 201);
      if (create.status === 201) await expectCountersMatchRows(owner.user.id);
    }
  });

  it('a team edited or joined while it is deleted', async () => {
    const ivan = await createTestUser(t);
    for (let round = 0; round < ROUNDS; round++) {
      const org = await createTestOrg(t, admin.user);
      const team = (
        await call('POST', `/api/v1/orgs/${org.name}/teams`, admin.auth, {
          name: 'racers',
          permission: 'read',
          units: ['repo.code'],
        })
      ).body as { id: number };
      const [edit, join, remove] = await Promise.all([
        call('PATCH', `/api/v1/teams/${team.id}`, admin.auth, { name: 'renamed', description: 'edited' }),
        call('PUT', `/api/v1/teams/${team.id}/members/${ivan.user.name}`, admin.auth),
        call('DELETE', `/api/v1/teams/${team.id}`, admin.auth),
      ]);
      expectNoServerErrors([edit, join, remove]);
      expect(remove.status).toBe(204);
      expect([200, 404]).toContain(edit.status);
      expect([204, 404]).toContain(join.status);
      expect((await call('GET', `/api/v1/teams/${team.id}`, admin.auth)).status).toBe(404);
      await expectCountersMatchRows(org.id);
    }
  });
});
