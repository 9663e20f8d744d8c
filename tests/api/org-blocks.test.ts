import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
});
afterAll(() => t.close());

describe('blocking users', () => {
  it('blocks, lists and unblocks a user; blocking twice or unblocking twice is a silent success', async () => {
    const org = await createTestOrg(t, owner.user);
    const pest = await createTestUser(t);
    const base = `/api/v1/orgs/${org.name}`;
    await t.request().put(`${base}/block/${pest.user.name}`).set('Authorization', owner.auth).expect(204);
    await t.request().put(`${base}/block/${pest.user.name}`).set('Authorization', owner.auth).expect(204);
    const listed = await t.request().get(`${base}/list_blocked`).set('Authorization', owner.auth).expect(200);
    expect(listed.body).toEqual([{ block_id: pest.user.id, created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) }]);
    expect(listed.headers['x-total-count']).toBe('1');
    await t.request().put(`${base}/unblock/${pest.user.name}`).set('Authorization', owner.auth).expect(204);
    await t.request().put(`${base}/unblock/${pest.user.name}`).set('Authorization', owner.auth).expect(204);
    expect((await t.request().get(`${base}/list_blocked`).set('Authorization', owner.auth).expect(200)).body).toEqual(
      [],
    );
  });

  it('removes a blocked member from the teams and the organization, and keeps them out', async () => {
    const org = await createTestOrg(t, owner.user);
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 2, isPublic: true });
    const { prisma } = t.context.db;
    const repo = await prisma.repository.create({
      data: { ownerId: org.id, ownerName: org.name, name: 'r', lowerName: 'r' },
    });
    await prisma.watch.create({ data: { userId: member.user.id, repoId: repo.id } });
    await prisma.collaboration.create({ data: { userId: member.user.id, repoId: repo.id } });
    await prisma.follow.create({ data: { userId: member.user.id, followId: org.id } });

    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/block/${member.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await prisma.teamUser.count({ where: { orgId: org.id, userId: member.user.id } })).toBe(0);
    expect(await prisma.orgUser.count({ where: { orgId: org.id, userId: member.user.id } })).toBe(0);
    expect(await prisma.watch.count({ where: { userId: member.user.id } })).toBe(0);
    expect(await prisma.collaboration.count({ where: { userId: member.user.id } })).toBe(0);
    expect(await prisma.follow.count({ where: { userId: member.user.id } })).toBe(0);
    await t.request().get(`/api/v1/orgs/${org.name}/public_members/${member.user.name}`).expect(404);
    await expect(t.context.services.orgs.assertNotBlocked(org.id, member.user.id)).rejects.toThrow(/blocked/);
    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/unblock/${member.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await expect(t.context.services.orgs.assertNotBlocked(org.id, member.user.id)).resolves.toBeUndefined();
  });

  it('answers 422 for an organization as target (rule 12) and for the last owner', async () => {
    const org = await createTestOrg(t, owner.user);
    const other = await createTestOrg(t, owner.user);
    for (const action of ['block', 'unblock']) {
      const res = await t
        .request()
        .put(`/api/v1/orgs/${org.name}/${action}/${other.name}`)
        .set('Authorization', owner.auth)
        .expect(422);
      expect(res.body.message).toMatch(/is an organization/);
    }
    const admin = await createTestUser(t, { admin: true });
    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/block/${owner.user.name}`)
      .set('Authorization', admin.auth)
      .expect(422);
    expect(
      (await t.request().get(`/api/v1/orgs/${org.name}/list_blocked`).set('Authorization', owner.auth).expect(200))
        .body,
    ).toEqual([]);
  });

  it('answers 404 for an unknown user and 403 to non-owners', async () => {
    const org = await createTestOrg(t, owner.user);
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    await t.request().put(`/api/v1/orgs/${org.name}/block/nobody-at-all`).set('Authorization', owner.auth).expect(404);
    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/block/${owner.user.name}`)
      .set('Authorization', member.auth)
      .expect(403);
    await t.request().get(`/api/v1/orgs/${org.name}/list_blocked`).set('Authorization', member.auth).expect(403);
    await t.request().get(`/api/v1/orgs/${org.name}/list_blocked`).expect(401);
  });
});
