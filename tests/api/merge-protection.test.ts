// Merging into a protected branch, as Forgejo decides it (services/pull/check.go, merge.go, commit_status.go): who
// may merge, required status checks, approvals (from the approvals whitelist when set), requested changes, an
// outdated head, work in progress, and force_merge by admins; a scheduled merge goes through the same check.
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser; // owns the organization: a repository admin
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let repoPath: string;
let counter = 0;

const api = (suffix: string) => `/api/v1/repos/${repoPath}${suffix}`;
const text = (value: string) => Buffer.from(value).toString('base64');

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob, carol, dave] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t)));
  const org = await createTestOrg(t, alice.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', alice.auth)
    .send({ name: 'guarded', auto_init: true })
    .expect(201);
  repoPath = `${org.name}/guarded`;
  for (const [name, members] of [
    ['writers', [bob, carol]],
    ['reviewers', [dave]],
  ] as const) {
    const team = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/teams`)
      .set('Authorization', alice.auth)
      .send({ name, permission: 'write', includes_all_repositories: true, units: ['repo.code', 'repo.pulls'] })
      .expect(201);
    for (const member of members)
      await t
        .request()
        .put(`/api/v1/teams/${team.body.id}/members/${member.user.name}`)
        .set('Authorization', alice.auth)
        .expect(204);
  }
});
afterAll(() => t.close());

/** The rule on main, replaced. */
async function protect(options: object): Promise<void> {
  await t.request().delete(api('/branch_protections/main')).set('Authorization', alice.auth);
  await t
    .request()
    .post(api('/branch_protections'))
    .set('Authorization', alice.auth)
    .send({ rule_name: 'main', enable_push: true, ...options })
    .expect(201);
}

/** A pull request by alice from a new branch with one new file; its number and head commit. */
async function openPull(title = 'Change'): Promise<{ index: number; head: string }> {
  const branch = `topic-${++counter}`;
  const written = await t
    .request()
    .post(api(`/contents/${branch}.txt`))
    .set('Authorization', alice.auth)
    .send({ content: text(branch), branch: 'main', new_branch: branch })
    .expect(201);
  const pull = await t
    .request()
    .post(api('/pulls'))
    .set('Authorization', alice.auth)
    .send({ head: branch, base: 'main', title })
    .expect(201);
  return { index: pull.body.number, head: written.body.commit.sha };
}

const merge = (index: number, user: TestUser, body: object = {}) =>
  t
    .request()
    .post(api(`/pulls/${index}/merge`))
    .set('Authorization', user.auth)
    .send({ Do: 'merge', ...body });

const review = (index: number, user: TestUser, event: string) =>
  t
    .request()
    .post(api(`/pulls/${index}/reviews`))
    .set('Authorization', user.auth)
    .send({ event, body: event === 'APPROVED' ? '' : 'please change' })
    .expect(200);

const status = (sha: string, state: string, context: string) =>
  t
    .request()
    .post(api(`/statuses/${sha}`))
    .set('Authorization', alice.auth)
    .send({ state, context })
    .expect(201);

async function refused(index: number, user: TestUser, message: string, body: object = {}): Promise<void> {
  const answer = await merge(index, user, body).expect(405);
  expect(answer.body.message).toBe(message);
}

const blocked = (reason: string) => `not allowed to merge [reason: ${reason}]`;

describe('who may merge', () => {
  it('the merge whitelist, when enabled, decides instead of write access', async () => {
    await protect({ enable_merge_whitelist: true, merge_whitelist_usernames: [bob.user.name] });
    const { index } = await openPull();
    await refused(index, carol, 'User not allowed to merge PR');
    await merge(index, bob).expect(200);
  });

  it('whitelisted teams may merge too', async () => {
    await protect({ enable_merge_whitelist: true, merge_whitelist_teams: ['reviewers'] });
    const { index } = await openPull();
    await refused(index, bob, 'User not allowed to merge PR');
    await merge(index, dave).expect(200);
  });
});

describe('what blocks a merge', () => {
  it('required status checks: missing or failing contexts matched by the glob refuse; all green passes', async () => {
    await protect({ enable_status_check: true, status_check_contexts: ['ci/*'] });
    const { index, head } = await openPull();
    await refused(index, bob, blocked('Not all required status checks successful'));
    await status(head, 'success', 'ci/build');
    await status(head, 'failure', 'ci/lint');
    await refused(index, bob, blocked('Not all required status checks successful'));
    await status(head, 'success', 'ci/lint');
    await status(head, 'failure', 'unrelated');
    await merge(index, bob).expect(200);
  });

  it('required approvals: official approvals count, a comment does not', async () => {
    await protect({ required_approvals: 2 });
    const { index } = await openPull();
    await refused(index, bob, blocked('Does not have enough approvals'));
    await review(index, carol, 'APPROVED');
    await review(index, dave, 'COMMENT');
    await refused(index, bob, blocked('Does not have enough approvals'));
    await review(index, dave, 'APPROVED');
    await merge(index, bob).expect(200);
  });

  it('with an approvals whitelist, only approvals of the listed count', async () => {
    await protect({
      required_approvals: 1,
      enable_approvals_whitelist: true,
      approvals_whitelist_teams: ['reviewers'],
    });
    const { index } = await openPull();
    await review(index, carol, 'APPROVED');
    await refused(index, bob, blocked('Does not have enough approvals'));
    await review(index, dave, 'APPROVED');
    await merge(index, bob).expect(200);
  });

  it('requested changes block while they are the reviewer’s latest word', async () => {
    await protect({ block_on_rejected_reviews: true });
    const { index } = await openPull();
    await review(index, carol, 'APPROVED');
    await review(index, dave, 'REQUEST_CHANGES');
    await refused(index, bob, blocked('There are requested changes'));
    await review(index, dave, 'APPROVED');
    await merge(index, bob).expect(200);
  });

  it('an outdated head branch blocks when the rule says so', async () => {
    await protect({ block_on_outdated_branch: true });
    const { index } = await openPull();
    await t
      .request()
      .post(api(`/contents/moved-${counter}.txt`))
      .set('Authorization', alice.auth)
      .send({ content: text('main moves on'), branch: 'main' })
      .expect(201);
    await refused(index, bob, blocked('The head branch is behind the base branch'));
  });

  it('work in progress cannot be merged, protected branch or not', async () => {
    await t.request().delete(api('/branch_protections/main')).set('Authorization', alice.auth).expect(204);
    const { index } = await openPull('WIP: not yet');
    await refused(index, bob, 'Work in progress PRs cannot be merged');
  });
});

describe('force_merge', () => {
  it('lets a repository admin past a blocking rule, not a writer, and not an admin the rule applies to', async () => {
    await protect({ required_approvals: 1 });
    const { index } = await openPull();
    await refused(index, bob, blocked('Does not have enough approvals'), { force_merge: true });
    await refused(index, alice, blocked('Does not have enough approvals'));
    await protect({ required_approvals: 1, apply_to_admins: true });
    await refused(index, alice, blocked('Does not have enough approvals'), { force_merge: true });
    await protect({ required_approvals: 1 });
    await merge(index, alice, { force_merge: true }).expect(200);
    const pull = await t
      .request()
      .get(api(`/pulls/${index}`))
      .expect(200);
    expect(pull.body).toMatchObject({ merged: true, merged_by: { login: alice.user.name } });
  });
});

describe('a scheduled merge', () => {
  it('is carried out by a status only once the same check passes; until then it stays scheduled', async () => {
    await protect({ required_approvals: 1, enable_status_check: true, status_check_contexts: ['ci'] });
    const { index, head } = await openPull();
    await merge(index, bob, { merge_when_checks_succeed: true }).expect(201);
    await status(head, 'success', 'ci');
    let pull = await t
      .request()
      .get(api(`/pulls/${index}`))
      .expect(200);
    expect(pull.body.merged).toBe(false);
    await review(index, carol, 'APPROVED');
    await status(head, 'success', 'ci');
    pull = await t
      .request()
      .get(api(`/pulls/${index}`))
      .expect(200);
    expect(pull.body).toMatchObject({ merged: true, merged_by: { login: bob.user.name } });
  });

  it('cannot be asked for by who may not merge', async () => {
    await protect({ enable_merge_whitelist: true, merge_whitelist_usernames: [bob.user.name] });
    const { index } = await openPull();
    await refused(index, carol, 'User not allowed to merge PR', { merge_when_checks_succeed: true });
  });
});
