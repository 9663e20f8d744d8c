// Repository create, get, edit, delete, watch, and the org repository list.
import fs from 'node:fs';
import path from 'node:path';
import { gitOk } from '../helpers/git-client.ts';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

const repoDir = (owner: string, name: string) =>
  path.join(t.context.settings.repository.ROOT, owner.toLowerCase(), `${name.toLowerCase()}.git`);
const create = (user: TestUser, body: Record<string, unknown>) =>
  t.request().post('/api/v1/user/repos').set('Authorization', user.auth).send(body);

describe('create', () => {
  it('creates exactly one of 10 concurrent repositories with the same name; the others answer 409', async () => {
    const name = uniqueName('race');
    const responses = await Promise.all(Array.from({ length: 10 }, () => create(bob, { name })));
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
    expect(
      await t.context.db.prisma.repository.count({ where: { ownerId: bob.user.id, lowerName: name.toLowerCase() } }),
    ).toBe(1);
  });

  it('creates a bare repository on disk with the default units, a watch and a create_repo activity', async () => {
    const res = await create(alice, { name: 'First-Repo', description: 'first', private: false }).expect(201);
    const login = alice.user.name;
    expect(res.body).toMatchObject({
      name: 'First-Repo',
      full_name: `${login}/First-Repo`,
      description: 'first',
      empty: true,
      private: false,
      default_branch: 'main',
      clone_url: `http://localhost:3000/${login}/First-Repo.git`,
      html_url: `http://localhost:3000/${login}/First-Repo`,
      url: `http://localhost:3000/api/v1/repos/${login}/First-Repo`,
      permissions: { admin: true, push: true, pull: true },
      has_issues: true,
      has_wiki: true,
      has_pull_requests: true,
      has_projects: true,
      has_releases: true,
      has_packages: true,
      has_actions: true,
      watchers_count: 1,
      owner: { login },
    });
    expect(fs.existsSync(path.join(repoDir(login, 'first-repo'), 'HEAD'))).toBe(true);
    const actions = await t.context.db.prisma.action.findMany({ where: { repoId: res.body.id } });
    expect(actions.map((a) => a.opType)).toContain(1);
    expect((await t.context.db.prisma.user.findUnique({ where: { id: alice.user.id } }))!.numRepos).toBe(1);
  });

  it('auto_init writes a README on the chosen default branch; unknown templates are refused', async () => {
    const res = await create(alice, {
      name: 'initialised',
      auto_init: true,
      default_branch: 'trunk',
      description: 'words',
    }).expect(201);
    expect(res.body).toMatchObject({ empty: false, default_branch: 'trunk' });
    await create(alice, { name: 'bad-readme', auto_init: true, readme: 'Nope' }).expect(400);
    await create(alice, { name: 'bad-gitignore', auto_init: true, gitignores: 'NoSuchTemplate' }).expect(422);
    await create(alice, { name: 'bad-license', auto_init: true, license: '../../etc/passwd' }).expect(422);
    await create(alice, { name: 'bad-branch', default_branch: 'a..b' }).expect(422);
    expect(fs.existsSync(repoDir(alice.user.name, 'bad-readme'))).toBe(false);
  });

  it('answers 409 for a taken name (any case) and 422 for bad or reserved names', async () => {
    await create(alice, { name: 'dup' }).expect(201);
    await create(alice, { name: 'DUP' }).expect(409);
    for (const name of ['..', '.', '-', 'x.git', 'x.wiki', 'a/b', 'sp ace', '../evil']) {
      const res = await create(alice, { name });
      expect([422]).toContain(res.status);
    }
  });

  it('enforces max_repo_creation for everyone but admins', async () => {
    const carol = await createTestUser(t, { fields: { maxRepoCreation: 1 } });
    await create(carol, { name: 'one' }).expect(201);
    await create(carol, { name: 'two' }).expect(403);
    await t
      .request()
      .post(`/api/v1/admin/users/${carol.user.name}/repos`)
      .set('Authorization', admin.auth)
      .send({ name: 'two' })
      .expect(201);
  });

  it('admin create: 404 for an unknown user, 403 for non-admins', async () => {
    await t
      .request()
      .post('/api/v1/admin/users/nobody-at-all/repos')
      .set('Authorization', admin.auth)
      .send({ name: 'x' })
      .expect(404);
    await t
      .request()
      .post(`/api/v1/admin/users/${bob.user.name}/repos`)
      .set('Authorization', alice.auth)
      .send({ name: 'x' })
      .expect(403);
    await t.request().post('/api/v1/user/repos').send({ name: 'x' }).expect(401);
  });

  it('org repos: owners and teams that may create; others 403; invisible or missing org 404 (422 on the deprecated route)', async () => {
    const org = await createTestOrg(t, alice.user);
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', alice.auth)
      .send({ name: 'org-repo' })
      .expect(201);
    expect(res.body.owner.login).toBe(org.name);
    // The Owners team includes all repositories through its flag: no TeamRepo row.
    expect(await t.context.db.prisma.teamRepo.count({ where: { repoId: res.body.id } })).toBe(0);
    expect(res.body.permissions).toEqual({ admin: true, push: true, pull: true });
    const canCreate = async () =>
      (
        await t
          .request()
          .get(`/api/v1/users/${bob.user.name}/orgs/${org.name}/permissions`)
          .set('Authorization', bob.auth)
          .expect(200)
      ).body.can_create_repository;
    expect(await canCreate()).toBe(false);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', bob.auth)
      .send({ name: 'nope' })
      .expect(403);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', alice.auth)
      .send({ name: 'org-repo' })
      .expect(409);

    const { prisma } = t.context.db;
    const team = await prisma.team.create({
      data: { orgId: org.id, name: 'makers', lowerName: 'makers', accessMode: 1, canCreateOrgRepo: true },
    });
    await prisma.teamUnit.create({ data: { orgId: org.id, teamId: team.id, type: 1, accessMode: 1 } });
    await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: bob.user.id } });
    await prisma.orgUser.create({ data: { orgId: org.id, userId: bob.user.id } });
    // The permissions endpoint and creation follow the same rule.
    expect(await canCreate()).toBe(true);
    const byTeam = await t
      .request()
      .post(`/org/${org.name}/repos`.replace(/^/, '/api/v1'))
      .set('Authorization', bob.auth)
      .send({ name: 'by-team' })
      .expect(201);
    // A creator without admin access through a team becomes an admin collaborator.
    expect(byTeam.body.permissions).toEqual({ admin: true, push: true, pull: true });

    const hidden = await createTestOrg(t, alice.user, { visibility: 2 });
    await t
      .request()
      .post(`/api/v1/orgs/${hidden.name}/repos`)
      .set('Authorization', bob.auth)
      .send({ name: 'x' })
      .expect(404);
    // Restricted users see only organizations they belong to (the one visibility rule of GET /orgs/{org}).
    const restricted = await createTestUser(t, { fields: { isRestricted: true } });
    await t.request().get(`/api/v1/orgs/${org.name}`).set('Authorization', restricted.auth).expect(404);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', restricted.auth)
      .send({ name: 'x' })
      .expect(404);
    await t
      .request()
      .post('/api/v1/orgs/no-such-org/repos')
      .set('Authorization', bob.auth)
      .send({ name: 'x' })
      .expect(404);
    await t
      .request()
      .post('/api/v1/org/no-such-org/repos')
      .set('Authorization', bob.auth)
      .send({ name: 'x' })
      .expect(422);
  });
});

describe('get', () => {
  it('shows public repositories to everyone and private ones only to those with access', async () => {
    await create(alice, { name: 'visible' }).expect(201);
    await create(alice, { name: 'hidden', private: true }).expect(201);
    const anon = await t.request().get(`/api/v1/repos/${alice.user.name}/visible`).expect(200);
    expect(anon.body.permissions).toEqual({ admin: false, push: false, pull: true });
    await t.request().get(`/api/v1/repos/${alice.user.name}/hidden`).expect(404);
    await t.request().get(`/api/v1/repos/${alice.user.name}/hidden`).set('Authorization', bob.auth).expect(404);
    const asAdmin = await t
      .request()
      .get(`/api/v1/repos/${alice.user.name}/HIDDEN`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(asAdmin.body.permissions.admin).toBe(true);
    await t.request().get(`/api/v1/repos/${alice.user.name}/nothing`).expect(404);
  });

  it('gives collaborators their access mode', async () => {
    const res = await create(alice, { name: 'collab', private: true }).expect(201);
    await t.context.db.prisma.collaboration.create({
      data: { repoId: res.body.id, userId: bob.user.id, accessMode: 2 },
    });
    const asBob = await t
      .request()
      .get(`/api/v1/repos/${alice.user.name}/collab`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(asBob.body.permissions).toEqual({ admin: false, push: true, pull: true });
  });

  it('hides public repositories of private users and orgs from outsiders', async () => {
    const dave = await createTestUser(t, { fields: { visibility: 2 } });
    await create(dave, { name: 'pub-of-private' }).expect(201);
    await t.request().get(`/api/v1/repos/${dave.user.name}/pub-of-private`).set('Authorization', bob.auth).expect(404);
    await t.request().get(`/api/v1/repos/${dave.user.name}/pub-of-private`).set('Authorization', dave.auth).expect(200);
    const limited = await createTestUser(t, { fields: { visibility: 1 } });
    await create(limited, { name: 'pub-of-limited' }).expect(201);
    await t.request().get(`/api/v1/repos/${limited.user.name}/pub-of-limited`).expect(404);
    await t
      .request()
      .get(`/api/v1/repos/${limited.user.name}/pub-of-limited`)
      .set('Authorization', bob.auth)
      .expect(200);
  });

  it('team units decide per-unit access on org repositories', async () => {
    const org = await createTestOrg(t, alice.user);
    const repo = (
      await t
        .request()
        .post(`/api/v1/orgs/${org.name}/repos`)
        .set('Authorization', alice.auth)
        .send({ name: 'teamed', private: true })
        .expect(201)
    ).body;
    const { prisma } = t.context.db;
    const erin = await createTestUser(t);
    const team = await prisma.team.create({
      data: { orgId: org.id, name: 'writers', lowerName: 'writers', accessMode: 2 },
    });
    await prisma.teamUnit.createMany({
      data: [
        { orgId: org.id, teamId: team.id, type: 1, accessMode: 2 },
        { orgId: org.id, teamId: team.id, type: 2, accessMode: 1 },
      ],
    });
    await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: erin.user.id } });
    await prisma.orgUser.create({ data: { orgId: org.id, userId: erin.user.id } });
    await t.request().get(`/api/v1/repos/${org.name}/teamed`).set('Authorization', erin.auth).expect(404);
    await prisma.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: repo.id } });
    const res = await t.request().get(`/api/v1/repos/${org.name}/teamed`).set('Authorization', erin.auth).expect(200);
    expect(res.body.permissions).toEqual({ admin: false, push: true, pull: true });
    const asOwner = await t
      .request()
      .get(`/api/v1/repos/${org.name}/teamed`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(asOwner.body.permissions.admin).toBe(true);
  });

  it('restricted users see only what they were given', async () => {
    const rita = await createTestUser(t, { fields: { isRestricted: true } });
    await t.request().get(`/api/v1/repos/${alice.user.name}/visible`).set('Authorization', rita.auth).expect(404);
    const res = await create(alice, { name: 'for-rita' }).expect(201);
    await t.context.db.prisma.collaboration.create({
      data: { repoId: res.body.id, userId: rita.user.id, accessMode: 1 },
    });
    await t.request().get(`/api/v1/repos/${alice.user.name}/for-rita`).set('Authorization', rita.auth).expect(200);
  });
});

describe('edit', () => {
  it('changes only the fields that are set', async () => {
    await create(alice, { name: 'editable', description: 'keep me', auto_init: true }).expect(201);
    const res = await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/editable`)
      .set('Authorization', alice.auth)
      .send({ website: 'https://example.com', template: true })
      .expect(200);
    expect(res.body).toMatchObject({
      description: 'keep me',
      website: 'https://example.com',
      template: true,
      private: false,
    });
    const priv = await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/editable`)
      .set('Authorization', alice.auth)
      .send({ private: true, description: '' })
      .expect(200);
    expect(priv.body).toMatchObject({ description: '', website: 'https://example.com', private: true });
  });

  it('switches units on and off', async () => {
    await create(alice, { name: 'units' }).expect(201);
    const url = `/api/v1/repos/${alice.user.name}/units`;
    const off = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ has_issues: false, has_wiki: false, has_projects: false, has_actions: false, allow_squash_merge: false })
      .expect(200);
    expect(off.body).toMatchObject({
      has_issues: false,
      has_wiki: false,
      has_projects: false,
      has_actions: false,
      has_pull_requests: true,
      allow_squash_merge: false,
      allow_rebase: true,
    });
    expect(off.body.internal_tracker).toBeUndefined();
    const ext = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({
        has_issues: true,
        external_tracker: { external_tracker_url: 'https://tracker.example.com' },
        has_wiki: true,
        external_wiki: { external_wiki_url: 'https://wiki.example.com' },
      })
      .expect(200);
    expect(ext.body).toMatchObject({
      has_issues: true,
      has_wiki: true,
      external_tracker: { external_tracker_url: 'https://tracker.example.com' },
      external_wiki: { external_wiki_url: 'https://wiki.example.com' },
    });
    await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ has_issues: true, external_tracker: { external_tracker_url: 'not a url' } })
      .expect(422);
    const back = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ has_issues: true, internal_tracker: { enable_time_tracker: false } })
      .expect(200);
    expect(back.body.internal_tracker).toMatchObject({ enable_time_tracker: false });
    expect(back.body.external_tracker).toBeUndefined();
  });

  it.each([
    [
      'an external tracker URL that is not http(s)',
      { has_issues: true, external_tracker: { external_tracker_url: 'ftp://tracker.example.com' } },
      'External tracker URL not valid',
    ],
    [
      'an external tracker URL on a loopback host',
      { has_issues: true, external_tracker: { external_tracker_url: 'http://127.0.0.1/issues' } },
      'External tracker URL not valid',
    ],
    [
      'a tracker format with an unknown placeholder',
      {
        has_issues: true,
        external_tracker: {
          external_tracker_url: 'https://t.example.com',
          external_tracker_format: 'https://t.example.com/{owner}/{index}',
        },
      },
      'External tracker URL format not valid',
    ],
    [
      'a tracker format with an unbalanced brace',
      {
        has_issues: true,
        external_tracker: {
          external_tracker_url: 'https://t.example.com',
          external_tracker_format: 'https://t.example.com/{user}/{repo/{index}',
        },
      },
      'External tracker URL format not valid',
    ],
    [
      'an external wiki URL that is not a URL',
      { has_wiki: true, external_wiki: { external_wiki_url: 'wiki.example.com' } },
      'Invalid external wiki URL',
    ],
    ['an unknown default merge style', { default_merge_style: 'octopus' }, /^\[default_merge_style\]: /],
    ['an unknown default update style', { default_update_style: 'squash' }, /^\[default_update_style\]: /],
  ])('refuses %s with 422 and stores nothing, not even a rename in the same body', async (_what, body, message) => {
    const name = uniqueName('checked');
    const before = (await create(alice, { name, description: 'before' }).expect(201)).body;
    const url = `/api/v1/repos/${alice.user.name}/${name}`;
    const res = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ name: `${name}-renamed`, description: 'after', has_issues: true, has_wiki: true, ...body })
      .expect(422);
    expect(res.body).toEqual({ message: expect.stringMatching(message), url: expect.any(String) });
    const after = await t.request().get(url).set('Authorization', alice.auth).expect(200);
    expect(after.body).toEqual(before);
    expect(fs.existsSync(repoDir(alice.user.name, name))).toBe(true);
  });

  it('stores a valid tracker format, merge style and update style', async () => {
    await create(alice, { name: 'settings-ok' }).expect(201);
    const format = 'https://tracker.example.com/{user}/{repo}/issues/{index}';
    const res = await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/settings-ok`)
      .set('Authorization', alice.auth)
      .send({
        has_issues: true,
        external_tracker: { external_tracker_url: 'https://tracker.example.com', external_tracker_format: format },
        default_merge_style: 'fast-forward-only',
        default_update_style: 'rebase',
      })
      .expect(200);
    expect(res.body).toMatchObject({
      external_tracker: { external_tracker_format: format },
      default_merge_style: 'fast-forward-only',
      default_update_style: 'rebase',
    });
  });

  it('renames the repository and its directory, leaving a redirect; taken or bad names answer 422', async () => {
    const created = (await create(alice, { name: 'old-name', auto_init: true }).expect(201)).body;
    await create(alice, { name: 'occupied' }).expect(201);
    const url = `/api/v1/repos/${alice.user.name}/old-name`;
    await t.request().patch(url).set('Authorization', alice.auth).send({ name: 'occupied' }).expect(422);
    await t.request().patch(url).set('Authorization', alice.auth).send({ name: '../escape' }).expect(422);
    await t.request().patch(url).set('Authorization', alice.auth).send({ name: 'bad.git' }).expect(422);
    const res = await t.request().patch(url).set('Authorization', alice.auth).send({ name: 'New-Name' }).expect(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'New-Name', full_name: `${alice.user.name}/New-Name` });
    expect(fs.existsSync(repoDir(alice.user.name, 'new-name'))).toBe(true);
    expect(fs.existsSync(repoDir(alice.user.name, 'old-name'))).toBe(false);
    expect(
      await t.context.db.prisma.repoRedirect.findFirst({
        where: { lowerName: 'old-name', redirectRepoId: created.id },
      }),
    ).not.toBeNull();
  });

  it('default_branch: set to an existing branch, ignored otherwise', async () => {
    await create(alice, { name: 'branches', auto_init: true }).expect(201);
    const url = `/api/v1/repos/${alice.user.name}/branches`;
    const ignored = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ default_branch: 'missing' })
      .expect(200);
    expect(ignored.body.default_branch).toBe('main');
    await gitOk(['--git-dir', repoDir(alice.user.name, 'branches'), 'branch', 'develop', 'main']);
    const changed = await t
      .request()
      .patch(url)
      .set('Authorization', alice.auth)
      .send({ default_branch: 'develop' })
      .expect(200);
    expect(changed.body.default_branch).toBe('develop');
    expect((await gitOk(['--git-dir', repoDir(alice.user.name, 'branches'), 'symbolic-ref', 'HEAD'])).trim()).toBe(
      'refs/heads/develop',
    );
  });

  it('archives and unarchives; needs repository admin (403) and visibility (404)', async () => {
    await create(alice, { name: 'archivable' }).expect(201);
    const url = `/api/v1/repos/${alice.user.name}/archivable`;
    const archived = await t.request().patch(url).set('Authorization', alice.auth).send({ archived: true }).expect(200);
    expect(archived.body.archived).toBe(true);
    expect(archived.body.archived_at).not.toBe('1970-01-01T00:00:00Z');
    await t.request().patch(url).set('Authorization', bob.auth).send({ description: 'x' }).expect(403);
    await create(alice, { name: 'private-edit', private: true }).expect(201);
    await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/private-edit`)
      .set('Authorization', bob.auth)
      .send({ description: 'x' })
      .expect(404);
    await t.request().patch(url).send({ description: 'x' }).expect(401);
  });
});

describe('delete', () => {
  it('removes the row and the directory; only owners (403), hidden repos 404', async () => {
    const created = (await create(alice, { name: 'doomed', auto_init: true }).expect(201)).body;
    const collaborator = await createTestUser(t);
    await t.context.db.prisma.collaboration.create({
      data: { repoId: created.id, userId: collaborator.user.id, accessMode: 3 },
    });
    await t
      .request()
      .delete(`/api/v1/repos/${alice.user.name}/doomed`)
      .set('Authorization', collaborator.auth)
      .expect(403);
    await t.request().delete(`/api/v1/repos/${alice.user.name}/doomed`).set('Authorization', bob.auth).expect(403);
    const before = (await t.context.db.prisma.user.findUnique({ where: { id: alice.user.id } }))!.numRepos;
    await t.request().delete(`/api/v1/repos/${alice.user.name}/doomed`).set('Authorization', alice.auth).expect(204);
    expect(fs.existsSync(repoDir(alice.user.name, 'doomed'))).toBe(false);
    await t.request().get(`/api/v1/repos/${alice.user.name}/doomed`).expect(404);
    expect((await t.context.db.prisma.user.findUnique({ where: { id: alice.user.id } }))!.numRepos).toBe(before - 1);
    await t.request().delete(`/api/v1/repos/${alice.user.name}/doomed`).set('Authorization', alice.auth).expect(404);
  });

  it('removes every row that names the repository, fixes the counters and unlinks packages', async () => {
    const { prisma } = t.context.db;
    const org = await createTestOrg(t, alice.user);
    const repo = (
      await t
        .request()
        .post(`/api/v1/orgs/${org.name}/repos`)
        .set('Authorization', alice.auth)
        .send({ name: 'cluttered' })
        .expect(201)
    ).body;
    // A team that holds the repository by a row (an includes-all team holds none).
    const team = await prisma.team.create({
      data: { orgId: org.id, name: 'holders', lowerName: 'holders', accessMode: 1, numRepos: 1 },
    });
    await prisma.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: repo.id } });
    const teamReposBefore = team.numRepos;
    await prisma.star.create({ data: { userId: bob.user.id, repoId: repo.id } });
    await prisma.user.update({ where: { id: bob.user.id }, data: { numStars: 1 } });
    const issue = await prisma.issue.create({ data: { repoId: repo.id, index: 1, posterId: bob.user.id, title: 'x' } });
    await prisma.issueWatch.create({ data: { userId: bob.user.id, issueId: issue.id } });
    await prisma.attachment.create({ data: { uuid: uniqueName('att'), repoId: repo.id, name: 'a.txt' } });
    await prisma.actionArtifact.create({ data: { repoId: repo.id, ownerId: org.id, name: 'artifact' } });
    await prisma.actionRunnerToken.create({ data: { token: uniqueName('runner'), ownerId: org.id, repoId: repo.id } });
    const pkg = await prisma.package.create({
      data: { ownerId: org.id, repoId: repo.id, type: 'generic', name: 'linked', lowerName: 'linked' },
    });

    await t.request().delete(`/api/v1/repos/${org.name}/cluttered`).set('Authorization', alice.auth).expect(204);

    const byRepo = { where: { repoId: repo.id } };
    expect(
      await Promise.all([
        prisma.star.count(byRepo),
        prisma.issue.count(byRepo),
        prisma.attachment.count(byRepo),
        prisma.actionArtifact.count(byRepo),
        prisma.actionRunnerToken.count(byRepo),
        prisma.teamRepo.count(byRepo),
        prisma.issueWatch.count({ where: { issueId: issue.id } }),
      ]),
    ).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } })).numStars).toBe(0);
    expect((await prisma.team.findUniqueOrThrow({ where: { id: team.id } })).numRepos).toBe(teamReposBefore - 1);
    expect(await prisma.package.findUniqueOrThrow({ where: { id: pkg.id } })).toMatchObject({ repoId: 0 });
  });
});

describe('watch', () => {
  it('subscribes and unsubscribes, counting watchers', async () => {
    await create(alice, { name: 'watched' }).expect(201);
    const url = `/api/v1/repos/${alice.user.name}/watched/subscription`;
    const res = await t.request().put(url).set('Authorization', bob.auth).expect(200);
    expect(res.body).toMatchObject({
      subscribed: true,
      ignored: false,
      repository_url: `http://localhost:3000/api/v1/repos/${alice.user.name}/watched`,
      url: `http://localhost:3000/api/v1/repos/${alice.user.name}/watched/subscription`,
    });
    await t.request().put(url).set('Authorization', bob.auth).expect(200);
    let repo = (await t.request().get(`/api/v1/repos/${alice.user.name}/watched`).expect(200)).body;
    expect(repo.watchers_count).toBe(2);
    await t.request().delete(url).set('Authorization', bob.auth).expect(204);
    repo = (await t.request().get(`/api/v1/repos/${alice.user.name}/watched`).expect(200)).body;
    expect(repo.watchers_count).toBe(1);
    await t.request().put(url).expect(401);
    await create(alice, { name: 'unwatchable', private: true }).expect(201);
    await t
      .request()
      .put(`/api/v1/repos/${alice.user.name}/unwatchable/subscription`)
      .set('Authorization', bob.auth)
      .expect(404);
  });
});

describe('org repository list', () => {
  it('lists by id what the caller can see, counting only that; invisible orgs 404', async () => {
    const org = await createTestOrg(t, alice.user, { name: uniqueName('listorg') });
    for (const [name, isPrivate] of [
      ['a-pub', false],
      ['b-priv', true],
      ['c-pub', false],
    ] as const) {
      await t
        .request()
        .post(`/api/v1/orgs/${org.name}/repos`)
        .set('Authorization', alice.auth)
        .send({ name, private: isPrivate })
        .expect(201);
    }
    const outsider = await t.request().get(`/api/v1/orgs/${org.name}/repos`).set('Authorization', bob.auth).expect(200);
    expect(outsider.body.map((r: { name: string }) => r.name)).toEqual(['a-pub', 'c-pub']);
    expect(outsider.headers['x-total-count']).toBe('2');
    const member = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/repos?limit=2`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(member.body.map((r: { name: string }) => r.name)).toEqual(['a-pub', 'b-priv']);
    expect(member.headers['x-total-count']).toBe('3');
    expect(member.headers.link).toMatch(/rel="next"/);
    const hidden = await createTestOrg(t, alice.user, { visibility: 2 });
    await t.request().get(`/api/v1/orgs/${hidden.name}/repos`).set('Authorization', bob.auth).expect(404);
    await t.request().get('/api/v1/orgs/no-such-org/repos').expect(404);
  });
});

describe('renamed owners and repositories', () => {
  const renameUser = (name: string, newName: string) =>
    t
      .request()
      .post(`/api/v1/admin/users/${name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: newName })
      .expect(204);
  const renameRepo = (owner: TestUser, ownerName: string, name: string, newName: string) =>
    t
      .request()
      .patch(`/api/v1/repos/${ownerName}/${name}`)
      .set('Authorization', owner.auth)
      .send({ name: newName })
      .expect(200);

  it('a user rename moves the folder and the owner name of every repository; the old owner name answers 307', async () => {
    const frank = await createTestUser(t);
    await create(frank, { name: 'moves', auto_init: true }).expect(201);
    await create(frank, { name: 'also-moves' }).expect(201);
    const newName = uniqueName('Renamed');
    await renameUser(frank.user.name, newName);
    for (const name of ['moves', 'also-moves']) {
      expect(fs.existsSync(repoDir(newName, name))).toBe(true);
      expect(fs.existsSync(repoDir(frank.user.name, name))).toBe(false);
    }
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, frank.user.lowerName))).toBe(false);
    const rows = await t.context.db.prisma.repository.findMany({
      where: { ownerId: frank.user.id },
      select: { ownerName: true },
    });
    expect(rows).toEqual([{ ownerName: newName }, { ownerName: newName }]);
    const res = await t.request().get(`/api/v1/repos/${newName}/moves`).expect(200);
    expect(res.body.full_name).toBe(`${newName}/moves`);
    const old = await t.request().get(`/api/v1/repos/${frank.user.name}/moves?x=1`).expect(307);
    expect(old.headers.location).toBe(`/api/v1/repos/${newName}/moves?x=1`);
  });

  it('a failed user rename leaves rows and folders where they were', async () => {
    const gina = await createTestUser(t);
    await create(gina, { name: 'stays', auto_init: true }).expect(201);
    // The target folder is occupied by a file, so moving the folder fails after the rows were written.
    const newName = uniqueName('blocked');
    fs.writeFileSync(path.join(t.context.settings.repository.ROOT, newName.toLowerCase()), 'not a folder');
    await t
      .request()
      .post(`/api/v1/admin/users/${gina.user.name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: newName })
      .expect(500);
    expect(fs.existsSync(repoDir(gina.user.name, 'stays'))).toBe(true);
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: gina.user.id } })).name).toBe(
      gina.user.name,
    );
    expect(
      (await t.context.db.prisma.repository.findFirstOrThrow({ where: { ownerId: gina.user.id } })).ownerName,
    ).toBe(gina.user.name);
    await t.request().get(`/api/v1/repos/${gina.user.name}/stays`).expect(200);
  });

  it('a renamed repository answers 307 under its old name, for every operation below it, query kept', async () => {
    await create(alice, { name: 'before-rename' }).expect(201);
    await renameRepo(alice, alice.user.name, 'before-rename', 'After-Rename');
    const get = await t.request().get(`/api/v1/repos/${alice.user.name}/BEFORE-rename?a=1&b=two`).expect(307);
    expect(get.headers.location).toBe(`/api/v1/repos/${alice.user.name}/After-Rename?a=1&b=two`);
    const put = await t
      .request()
      .put(`/api/v1/repos/${alice.user.name}/before-rename/subscription`)
      .set('Authorization', bob.auth)
      .expect(307);
    expect(put.headers.location).toBe(`/api/v1/repos/${alice.user.name}/After-Rename/subscription`);
    // Before the token check, as Forgejo's repository assignment runs first.
    await t.request().delete(`/api/v1/repos/${alice.user.name}/before-rename`).expect(307);
    // The redirect belongs to the owner: the same name under someone else is simply missing.
    await t.request().get(`/api/v1/repos/${bob.user.name}/before-rename`).expect(404);
    await t.request().get(`/api/v1/repos/${alice.user.name}/never-existed`).expect(404);
    // Not a repository lookup: the unadopted-folder operations take the name as it is.
    await t
      .request()
      .delete(`/api/v1/admin/unadopted/${alice.user.name}/before-rename`)
      .set('Authorization', admin.auth)
      .expect(404);
  });

  it('combines an owner redirect with a repository redirect into one 307', async () => {
    const hank = await createTestUser(t);
    await create(hank, { name: 'first-name' }).expect(201);
    await renameRepo(hank, hank.user.name, 'first-name', 'second-name');
    const newOwner = uniqueName('hank');
    await renameUser(hank.user.name, newOwner);
    const res = await t.request().get(`/api/v1/repos/${hank.user.name}/first-name`).expect(307);
    expect(res.headers.location).toBe(`/api/v1/repos/${newOwner}/second-name`);
    const ownerOnly = await t.request().get(`/api/v1/repos/${hank.user.name}/second-name`).expect(307);
    expect(ownerOnly.headers.location).toBe(`/api/v1/repos/${newOwner}/second-name`);
  });

  it('a new repository under the old name ends the redirect; deleting a repository ends its redirects', async () => {
    await create(alice, { name: 'reused' }).expect(201);
    await renameRepo(alice, alice.user.name, 'reused', 'moved-on');
    await create(alice, { name: 'reused', description: 'the new one' }).expect(201);
    expect((await t.request().get(`/api/v1/repos/${alice.user.name}/reused`).expect(200)).body.description).toBe(
      'the new one',
    );
    await t.request().delete(`/api/v1/repos/${alice.user.name}/reused`).set('Authorization', alice.auth).expect(204);
    await t.request().get(`/api/v1/repos/${alice.user.name}/reused`).expect(404);

    await renameRepo(alice, alice.user.name, 'moved-on', 'moved-again');
    await t.request().get(`/api/v1/repos/${alice.user.name}/moved-on`).expect(307);
    await t
      .request()
      .delete(`/api/v1/repos/${alice.user.name}/moved-again`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t.request().get(`/api/v1/repos/${alice.user.name}/moved-on`).expect(404);
  });
});
