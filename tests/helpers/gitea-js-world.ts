// The world the gitea-js coverage test calls into, and the arguments it passes: path values by parameter name,
// and request bodies for the methods that take one. Every write aims at something that exists (or at a spare
// made for it), so that most calls succeed rather than answer 404.
import type { User } from '../../src/db/entities.ts';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from './factories.ts';
import type { TestApp } from './test-app.ts';

export const ED25519_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIE8xTNzErH5Ea4s9DnOGt8kZcoTCzG4B3SbAWDc+ijtf fixture@ed25519-256';
const DEPLOY_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvgGX2fUWYbw8XXKpGDIJu0Fi70OWM+zZ8ZiNOBRwaZ deploy@anvil';

const REPO_DEPLOY_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFTgOJDm7wrjxSS0ULeMaBoiuVOnrJB1Q6Rr3jApoX5K repo@anvil';

export interface World {
  boss: TestUser;
  pal: TestUser;
  /** Renamed, then deleted by the admin methods. */
  spare: TestUser;
  org: User;
  spareOrg: User;
  repo: string;
  spareRepo: string;
  orgRepo: string;
  sha: string;
  branch: string;
  issue: number;
  pull: number;
  /** Ids captured from answers, by the normalised path of their collection. */
  ids: Map<string, number>;
  strings: Map<string, string>;
}

export async function seedWorld(t: TestApp): Promise<World> {
  const boss = await createTestUser(t, { admin: true });
  const pal = await createTestUser(t);
  const spare = await createTestUser(t);
  const org = await createTestOrg(t, boss.user);
  const spareOrg = await createTestOrg(t, boss.user);
  const as = (method: 'get' | 'post' | 'put', url: string, body?: object) =>
    t.request()[method](`/api/v1${url}`).set('Authorization', boss.auth).send(body);
  const name = boss.user.name;
  for (const repo of ['tools', 'spare'])
    await as('post', '/user/repos', { name: repo, auto_init: true, readme: 'Default' }).expect(201);
  await as('post', `/orgs/${org.name}/repos`, { name: 'shared', auto_init: true }).expect(201);
  const repoId = (await as('get', `/repos/${name}/tools`).expect(200)).body.id as number;
  const sha = (await as('get', `/repos/${name}/tools/branches/main`).expect(200)).body.commit.id as string;
  await as('post', `/repos/${name}/tools/contents/feature.txt`, {
    content: Buffer.from('feature\n').toString('base64'),
    new_branch: 'feature',
  }).expect(201);
  await as('post', `/repos/${name}/tools/contents/.editorconfig`, {
    content: Buffer.from('root = true\n[*]\nindent_size = 2\n').toString('base64'),
  }).expect(201);
  await as('post', `/repos/${name}/tools/branches`, { new_branch_name: 'doomed' }).expect(201);
  const issue = (await as('post', `/repos/${name}/tools/issues`, { title: 'A bug' }).expect(201)).body.number;
  const pull = (
    await as('post', `/repos/${name}/tools/pulls`, { title: 'A feature', head: 'feature', base: 'main' }).expect(201)
  ).body.number;
  await as('put', `/repos/${name}/tools/collaborators/${pal.user.name}`, { permission: 'write' }).expect(204);
  return {
    boss,
    pal,
    spare,
    org,
    spareOrg,
    repo: 'tools',
    spareRepo: 'spare',
    orgRepo: 'shared',
    sha,
    branch: 'feature',
    issue,
    pull,
    ids: new Map([['/repositories', repoId]]),
    strings: new Map(),
  };
}

/** The normalised collection path a `{id}`-like parameter indexes, with the creating collection for aliases. */
const ID_ALIASES: Record<string, string> = {
  '/teams': '/orgs/{}/teams',
  '/repos/{}/{}/issues/comments': '/repos/{}/{}/issues/{}/comments',
  '/repos/{}/{}/issues/{}/labels': '/repos/{}/{}/labels',
  '/user/keys': '/user/keys',
  '/admin/users/{}/keys': '/admin/users/{}/keys',
  '/notifications/threads': '/notifications',
};

export function collectionKey(route: string): string {
  const key = route.replace(/\{[^}]+\}/g, '{}');
  return ID_ALIASES[key] ?? key;
}

/** The value of one path parameter; `before` is the path up to it. */
export function pathValue(w: World, param: string, route: string, before: string): string | number {
  const id = (key: string) => w.ids.get(collectionKey(key)) ?? 999999;
  switch (param) {
    case 'owner':
    case 'templateOwner':
      return w.boss.user.name;
    case 'repo':
    case 'templateRepo':
    case 'repository':
      return w.repo;
    case 'org':
      return w.org.name;
    case 'username':
    case 'user':
    case 'collaborator':
    case 'target':
      return route.startsWith('/users/{username}/tokens') ? w.boss.user.name : w.pal.user.name;
    case 'index':
      return before.endsWith('/pulls/') ? w.pull : w.issue;
    case 'id':
      return id(before.slice(0, -1));
    case 'attachmentId':
      return id(before.slice(0, -1));
    case 'userId':
      return w.boss.user.id;
    case 'sha':
      return w.sha;
    case 'ref':
    case 'base':
      return 'main';
    case 'branch':
      return 'main';
    case 'head':
      return w.branch;
    case 'basehead':
      return `main...${w.branch}`;
    case 'filepath':
      return 'README.md';
    case 'tag':
      return 'v1.0';
    case 'archive':
      return 'main.zip';
    case 'diffType':
      return 'diff';
    case 'topic':
      return 'tooling';
    case 'variablename':
      return 'BUILD_MODE';
    case 'secretname':
      return 'DEPLOY_TOKEN';
    case 'task':
      return w.strings.get('task') ?? 'none';
    case 'token':
      return w.strings.get('token') ?? 'none';
    case 'type':
      return 'generic';
    case 'version':
      return '1.0.0';
    case 'team':
      return 'Owners';
    case 'position':
      return 1;
    case 'pageName':
      return 'Home';
    case 'name':
      if (route.startsWith('/gitignore/')) return 'Go';
      if (route.startsWith('/label/')) return 'Default';
      if (route.startsWith('/licenses/')) return 'MIT';
      if (route.startsWith('/packages/')) return 'widget';
      return 'main';
    default:
      throw new Error(`no value for path parameter ${param} of ${route}`);
  }
}

const text = (value: string) => Buffer.from(value).toString('base64');

/** Bodies (and the query of uploads) by method name; a function when they use the world. */
export function bodyFor(w: World, method: string): unknown {
  const hook = { type: 'gitea', config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' }, active: true };
  const bodies: Record<string, () => unknown> = {
    adminCreateHook: () => hook,
    adminEditHook: () => ({ active: false }),
    adminCreateUser: () => ({ username: uniqueName(), email: `${uniqueName()}@example.com`, password: 'long-pass-1' }),
    adminEditUser: () => ({ login_name: w.pal.user.name, source_id: 0, full_name: 'Pal' }),
    adminCreatePublicKey: () => ({ key: ED25519_KEY, title: 'laptop' }),
    adminCreateOrg: () => ({ username: uniqueName('org') }),
    adminRenameUser: () => {
      const renamed = uniqueName('renamed');
      w.strings.set('renamed', renamed);
      return { new_username: renamed };
    },
    adminCreateRepo: () => ({ name: uniqueName('repo') }),
    renderMarkdown: () => ({ Text: '# Title', Mode: 'markdown' }),
    renderMarkdownRaw: () => '# Title',
    renderMarkup: () => ({ Text: '# Title', Mode: 'markdown' }),
    createOrgRepoDeprecated: () => ({ name: uniqueName('repo') }),
    orgCreate: () => ({ username: uniqueName('org') }),
    orgEdit: () => ({ description: 'Tools and more' }),
    updateOrgSecret: () => ({ data: 'secret-value' }),
    updateOrgVariable: () => ({ value: 'release' }),
    createOrgVariable: () => ({ value: 'debug' }),
    updateRepoSecret: () => ({ data: 'secret-value' }),
    updateRepoVariable: () => ({ value: 'release' }),
    createRepoVariable: () => ({ value: 'debug' }),
    updateUserSecret: () => ({ data: 'secret-value' }),
    updateUserVariable: () => ({ value: 'release' }),
    createUserVariable: () => ({ value: 'debug' }),
    orgUpdateAvatar: () => ({ image: PNG_1X1 }),
    userUpdateAvatar: () => ({ image: PNG_1X1 }),
    orgCreateHook: () => hook,
    orgEditHook: () => ({ active: false }),
    orgCreateLabel: () => ({ name: 'org-wide', color: '#00aabb' }),
    orgEditLabel: () => ({ description: 'for all repositories' }),
    createOrgRepo: () => ({ name: uniqueName('repo') }),
    orgCreateTeam: () => ({ name: 'builders', permission: 'write', units: ['repo.code', 'repo.issues'] }),
    repoMigrate: () => ({ clone_addr: 'http://127.0.0.1:9/none.git', repo_name: uniqueName('mig') }),
    repoEdit: () => ({ description: 'Build tools' }),
    repoCreateBranchProtection: () => ({ rule_name: 'main', required_approvals: 0 }),
    repoEditBranchProtection: () => ({ required_approvals: 1 }),
    repoCreateBranch: () => ({ new_branch_name: 'next', old_ref_name: 'main' }),
    repoAddCollaborator: () => ({ permission: 'read' }),
    repoChangeFiles: () => ({ files: [{ operation: 'create', path: 'docs/one.md', content: text('one\n') }] }),
    repoUpdateFile: () => ({ content: text('# Tools, updated\n'), sha: w.strings.get('readme') ?? '' }),
    repoCreateFile: () => ({ content: text('new\n') }),
    repoDeleteFile: () => ({ sha: w.strings.get('readme') ?? '' }),
    createFork: () => ({ organization: w.org.name, name: 'tools-fork' }),
    repoCreateHook: () => hook,
    repoEditHook: () => ({ active: false }),
    issueCreateIssue: () => ({ title: 'Another bug', body: 'Steps' }),
    issueEditComment: () => ({ body: 'edited' }),
    issueEditIssue: () => ({ body: 'More detail' }),
    issueCreateComment: () => ({ body: 'Seen it too' }),
    issueEditCommentDeprecated: () => ({ body: 'edited again' }),
    issueReplaceLabels: () => ({ labels: [w.ids.get('/repos/{}/{}/labels') ?? 0] }),
    issueAddLabel: () => ({ labels: [w.ids.get('/repos/{}/{}/labels') ?? 0] }),
    issueCreateLabel: () => ({ name: 'bug', color: '#ee0701' }),
    issueEditLabel: () => ({ description: 'Something is broken' }),
    issueCreateMilestone: () => ({ title: 'v1' }),
    issueEditMilestone: () => ({ description: 'First cut' }),
    repoCreatePullRequest: () => ({ title: 'Same again', head: 'feature', base: 'main' }),
    repoEditPullRequest: () => ({ body: 'Ready' }),
    repoMergePullRequest: () => ({ Do: 'merge' }),
    repoCreatePullReviewRequests: () => ({ reviewers: [w.pal.user.name] }),
    repoDeletePullReviewRequests: () => ({ reviewers: [w.pal.user.name] }),
    repoCreatePullReview: () => ({ event: 'COMMENT', body: 'Looks fine' }),
    repoCreateRelease: () => ({ tag_name: 'v1.0', name: 'First' }),
    repoEditRelease: () => ({ body: 'Notes' }),
    repoCreateReleaseAttachment: () => ({ attachment: new Blob(['zip bytes']) }),
    repoEditReleaseAttachment: () => ({ name: 'tools.zip' }),
    repoCreateStatus: () => ({ state: 'success', context: 'ci', target_url: 'http://ci.example.com/1' }),
    repoCreateTag: () => ({ tag_name: 'v0.9', target: 'main' }),
    repoUpdateTopics: () => ({ topics: ['build', 'tools'] }),
    repoCreateKey: () => ({ key: REPO_DEPLOY_KEY, title: 'ci', read_only: true }),
    repoCreateTagProtection: () => ({ name_pattern: 'v*', whitelist_usernames: [w.boss.user.name] }),
    repoEditTagProtection: () => ({ whitelist_usernames: [w.boss.user.name, w.pal.user.name] }),
    repoUpdateAvatar: () => ({ image: PNG_1X1 }),
    orgEditTeam: () => ({ name: 'Owners', description: 'The owners' }),
    userAddEmail: () => ({ emails: ['second@example.com'] }),
    userDeleteEmail: () => ({ emails: ['second@example.com'] }),
    userCurrentPostKey: () => ({ key: DEPLOY_KEY, title: 'desktop' }),
    createCurrentUserRepo: () => ({ name: uniqueName('repo') }),
    userCreateToken: () => ({ name: uniqueName('token'), scopes: ['read:repository'] }),
  };
  return bodies[method]?.();
}

// A 1×1 transparent PNG, base64, as the avatar endpoints take it.
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
