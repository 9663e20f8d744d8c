// Drives every cell of authorization-matrix.table.ts on this test's database: each operation as each caller
// against a public, a limited and a private organization (and a public and a private repository in it).
import { addTestOrgMember, createTestOrg, createTestUser, createToken, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  CALLERS, MATRIX, OWNER_VISIBILITIES, type ByOwner, type CallerName, type MatrixOperation, type OwnerVisibility, type RepoVisibility,
} from './authorization-matrix.table.ts';

let t: TestApp;
let auth: Record<Exclude<CallerName, 'anonymous'>, string>;
interface OrgFixture { org: string; teamId: number; hookId: number; repos: Record<RepoVisibility, string>; secret: string; packageName: string }
const fixtures = {} as Record<OwnerVisibility, OrgFixture>;

async function asOwner(method: 'post' | 'put', url: string, body: object | Buffer): Promise<{ id: number }> {
  let request = t.request()[method](`/api/v1${url}`.replace('/api/v1/api/', '/api/')).set('Authorization', auth.orgOwner);
  request = Buffer.isBuffer(body) ? request.set('Content-Type', 'application/octet-stream').send(body) : request.send(body);
  const res = await request;
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body as { id: number };
}

async function makeTeam(org: string, options: object = {}): Promise<number> {
  return (await asOwner('post', `/orgs/${org}/teams`, { name: uniqueName('team'), permission: 'read', units: ['repo.code'], ...options })).id;
}

async function makeRepo(org: string, visibility: RepoVisibility): Promise<string> {
  const name = uniqueName('repo');
  await asOwner('post', `/orgs/${org}/repos`, { name, private: visibility === 'private' });
  return name;
}

async function makeHook(org: string): Promise<number> {
  return (await asOwner('post', `/orgs/${org}/hooks`, { type: 'gitea', config: { url: 'https://hooks.example/x', content_type: 'json' }, events: ['push'] })).id;
}

async function makeSecret(org: string): Promise<string> {
  const name = uniqueName('SECRET_').toUpperCase();
  await asOwner('put', `/orgs/${org}/actions/secrets/${name}`, { data: 'value' });
  return name;
}

async function makePackage(org: string): Promise<string> {
  const name = uniqueName('pkg');
  await asOwner('put', `/api/packages/${org}/generic/${name}/1.0.0/file.bin`, Buffer.from('package'));
  return name;
}

beforeAll(async () => {
  t = await startTestApp();
  const owner = await createTestUser(t);
  const users: Record<string, TestUser> = {
    outsider: await createTestUser(t),
    orgMember: await createTestUser(t),
    teamMember: await createTestUser(t),
    siteAdmin: await createTestUser(t, { admin: true }),
  };
  auth = {
    outsider: users.outsider.auth,
    orgMember: users.orgMember.auth,
    teamMember: users.teamMember.auth,
    orgOwner: owner.auth,
    siteAdmin: users.siteAdmin.auth,
    publicOnlyToken: `token ${await createToken(t, owner.user, 'all,public-only')}`,
    readOnlyToken: `token ${await createToken(t, owner.user, 'read:organization,read:repository,read:package,read:user,read:misc')}`,
  };
  for (const [index, visibility] of OWNER_VISIBILITIES.entries()) {
    const org = await createTestOrg(t, owner.user, { visibility: index as 0 | 1 | 2 });
    // The org member sits in a team without repositories; the team member in a write team over all of them.
    await addTestOrgMember(t, org, users.orgMember.user);
    const teamId = await makeTeam(org.name, { permission: 'write', units: ['repo.code', 'repo.packages'], includes_all_repositories: true });
    await t.request().put(`/api/v1/teams/${teamId}/members/${users.teamMember.user.name}`).set('Authorization', owner.auth).expect(204);
    fixtures[visibility] = {
      org: org.name,
      teamId,
      hookId: await makeHook(org.name),
      repos: { public: await makeRepo(org.name, 'public'), private: await makeRepo(org.name, 'private') },
      secret: await makeSecret(org.name),
      packageName: await makePackage(org.name),
    };
  }
});
afterAll(() => t.close());

async function pathFor(op: MatrixOperation, visibility: OwnerVisibility, repoVisibility: RepoVisibility): Promise<string> {
  const f = fixtures[visibility];
  const value = async (kind: string): Promise<string> => {
    if (op.throwaway === kind) {
      switch (kind) {
        case 'team': return String(await makeTeam(f.org));
        case 'repo': return makeRepo(f.org, repoVisibility);
        case 'hook': return String(await makeHook(f.org));
        case 'secret': return makeSecret(f.org);
        case 'package': return makePackage(f.org);
      }
    }
    switch (kind) {
      case 'org': return f.org;
      case 'team': return String(f.teamId);
      case 'repo': return f.repos[repoVisibility];
      case 'hook': return String(f.hookId);
      case 'secret': return f.secret;
      case 'package': return f.packageName;
      default: throw new Error(`unknown placeholder ${kind}`);
    }
  };
  let out = op.route.split(' ')[1];
  for (const [placeholder, kind] of out.matchAll(/\{(\w+)\}/g)) out = out.replace(placeholder, await value(kind));
  return out;
}

async function statusOf(op: MatrixOperation, caller: CallerName, visibility: OwnerVisibility, repoVisibility: RepoVisibility): Promise<number> {
  const method = op.route.split(' ')[0].toLowerCase() as 'get' | 'patch' | 'delete';
  let request = t.request()[method](`/api/v1${await pathFor(op, visibility, repoVisibility)}`);
  if (caller !== 'anonymous') request = request.set('Authorization', auth[caller]);
  return (op.body ? await request.send(op.body) : await request).status;
}

const isByRepo = (expected: MatrixOperation['expected']): expected is Record<RepoVisibility, ByOwner> => 'private' in expected && !Array.isArray(expected.private);

const cells = MATRIX.flatMap((op) =>
  (isByRepo(op.expected) ? (['public', 'private'] as const) : (['public'] as const)).flatMap((repoVisibility) =>
    OWNER_VISIBILITIES.map((visibility) => {
      const byOwner = isByRepo(op.expected) ? op.expected[repoVisibility] : (op.expected as ByOwner);
      const label = isByRepo(op.expected) ? `${op.route} on a ${repoVisibility} repository of a ${visibility} owner` : `${op.route} on a ${visibility} owner`;
      return [label, op, visibility, repoVisibility, byOwner[visibility]] as const;
    }),
  ),
);

describe('authorization matrix', () => {
  it.each(cells)('%s', async (_label, op, visibility, repoVisibility, expectedRow) => {
    const actual: Record<string, number> = {};
    const expected: Record<string, number> = {};
    for (const [index, caller] of CALLERS.entries()) {
      actual[caller] = await statusOf(op, caller, visibility, repoVisibility);
      expected[caller] = expectedRow[index];
    }
    expect(actual).toEqual(expected);
  });
});
