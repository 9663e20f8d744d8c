// The world the matrix runs in, made once per test file, and the driver that runs each row as every caller.
// Shared fixtures are made once; throwaway ones (`new:` values) before each request that names them.
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OPERATIONS } from '../../../generated/operations.ts';
import {
  addTestOrgMember,
  createTestOrg,
  createTestUser,
  createToken,
  uniqueName,
  type TestUser,
} from '../../helpers/factories.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import {
  CALLERS,
  OWNER_VISIBILITIES,
  REPO_VISIBILITIES,
  type ByOwner,
  type CallerName,
  type MatrixRow,
  type OwnerVisibility,
  type RepoVisibility,
  type Row,
  type Value,
} from './matrix.ts';

const READ_EVERYTHING =
  'read:activitypub,read:admin,read:issue,read:misc,read:notification,read:organization,read:package,read:repository,read:user';
/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

interface OwnerWorld {
  owner: TestUser;
  org: string;
  auth: Record<'orgOwner' | 'publicOnlyToken' | 'readOnlyToken', string>;
  repos: Record<RepoVisibility, string>;
  teamId: number;
  teamName: string;
  orgHookId: number;
  labelId: number;
  secret: string;
  variable: string;
  /** A generic package (version 1.0.0, file.bin) of the organization and one of the owner user. */
  orgPackage: string;
  userPackage: string;
}

interface World {
  t: TestApp;
  users: Record<'outsider' | 'orgMember' | 'teamMember' | 'siteAdmin', TestUser>;
  owners: Record<OwnerVisibility, OwnerWorld>;
  adminHookId: number;
  quotaGroup: string;
  quotaRule: string;
  threadId: number;
  avatarHash: string;
}

/** Where a request is made: which owner, which repository, and which of the two the path's owner is. */
interface Cell {
  visibility: OwnerVisibility;
  repoVisibility: RepoVisibility;
  ownerKind: 'org' | 'user';
}

let world: World;

async function call(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  url: string,
  auth: string,
  body?: object | Buffer,
) {
  let request = world.t.request()[method](url).set('Authorization', auth);
  if (Buffer.isBuffer(body)) request = request.set('Content-Type', 'application/octet-stream').send(body);
  else if (body) request = request.send(body);
  const res = await request;
  if (res.status >= 300) throw new Error(`fixture ${method.toUpperCase()} ${url}: ${res.status} ${res.text}`);
  return res.body as { id: number; number: number; avatar_url: string };
}

const asOwner = (visibility: OwnerVisibility) => world.owners[visibility].owner.auth;
const asAdmin = () => world.users.siteAdmin.auth;

async function makeTeam(visibility: OwnerVisibility, options: object = {}): Promise<number> {
  const org = world.owners[visibility].org;
  return (
    await call('post', `/api/v1/orgs/${org}/teams`, asOwner(visibility), {
      name: uniqueName('team'),
      permission: 'read',
      units: ['repo.code'],
      ...options,
    })
  ).id;
}

async function makeRepo(
  visibility: OwnerVisibility,
  repoVisibility: RepoVisibility,
  autoInit = false,
): Promise<string> {
  const name = uniqueName('repo');
  await call('post', `/api/v1/orgs/${world.owners[visibility].org}/repos`, asOwner(visibility), {
    name,
    private: repoVisibility === 'private',
    auto_init: autoInit,
  });
  return name;
}

async function makeOrgHook(visibility: OwnerVisibility): Promise<number> {
  const body = { type: 'gitea', config: { url: 'https://hooks.example/x', content_type: 'json' }, events: ['push'] };
  return (await call('post', `/api/v1/orgs/${world.owners[visibility].org}/hooks`, asOwner(visibility), body)).id;
}

async function makeLabel(visibility: OwnerVisibility): Promise<number> {
  return (
    await call('post', `/api/v1/orgs/${world.owners[visibility].org}/labels`, asOwner(visibility), {
      name: uniqueName('label'),
      color: '#00aabb',
    })
  ).id;
}

async function makeSecret(visibility: OwnerVisibility): Promise<string> {
  const name = uniqueName('SECRET_').toUpperCase();
  await call('put', `/api/v1/orgs/${world.owners[visibility].org}/actions/secrets/${name}`, asOwner(visibility), {
    data: 'value',
  });
  return name;
}

async function makeVariable(visibility: OwnerVisibility): Promise<string> {
  const name = uniqueName('VAR_').toUpperCase();
  await call('post', `/api/v1/orgs/${world.owners[visibility].org}/actions/variables/${name}`, asOwner(visibility), {
    value: 'value',
  });
  return name;
}

async function makePackage(
  ownerName: string,
  auth: string,
  name = uniqueName('pkg'),
  version = '1.0.0',
): Promise<string> {
  await call('put', `/api/packages/${ownerName}/generic/${name}/${version}/file.bin`, auth, Buffer.from('package'));
  return name;
}

async function makeUser(visibility: OwnerVisibility = 'public'): Promise<TestUser> {
  return createTestUser(world.t, { fields: { visibility: OWNER_VISIBILITIES.indexOf(visibility) } });
}

async function makeQuotaGroup(): Promise<string> {
  const name = uniqueName('group');
  await call('post', '/api/v1/admin/quota/groups', asAdmin(), { name, rules: [] });
  return name;
}

async function makeQuotaRule(): Promise<string> {
  const name = uniqueName('rule');
  await call('post', '/api/v1/admin/quota/rules', asAdmin(), {
    name,
    limit: 1024 * 1024 * 1024,
    subjects: ['size:all'],
  });
  return name;
}

export function newPublicKey(): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const raw = der.subarray(der.length - 32);
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]).toString('base64')} matrix`;
}

/** The user (`user`) or organization (`org`) the path's owner is in this cell. */
function ownerName(cell: Cell): string {
  const owner = world.owners[cell.visibility];
  return cell.ownerKind === 'user' ? owner.owner.user.name : owner.org;
}

/** The value a parameter takes when the row names none. */
function defaultValue(param: string, cell: Cell): Value {
  switch (param) {
    case 'org':
      return 'org';
    case 'owner':
      return cell.ownerKind === 'user' ? 'ownerUser' : 'org';
    case 'username':
      return cell.ownerKind === 'user' ? 'ownerUser' : 'orgMember';
    case 'repo':
      return 'repo';
    case 'index':
      return 'issue';
    case 'type':
      return 'generic';
    case 'name':
    case 'packagename':
      return 'package';
    case 'version':
    case 'packageversion':
      return 'packageVersion';
    case 'filename':
      return 'packageFile';
    case 'secretname':
      return 'secret';
    case 'variablename':
      return 'variable';
    case 'quotagroup':
      return 'quotaGroup';
    case 'quotarule':
      return 'quotaRule';
    // The shared repositories are empty: a branch or tag name names nothing there.
    case 'branch':
    case 'tag':
      return 'missingRef';
    default:
      throw new Error(`no default value for path parameter {${param}}: name one in the row`);
  }
}

async function resolve(value: Value, cell: Cell): Promise<string> {
  const { visibility, repoVisibility } = cell;
  const owner = world.owners[visibility];
  const org = owner.org;
  switch (value) {
    case 'org':
      return org;
    case 'ownerUser':
      return owner.owner.user.name;
    case 'ownerId':
      return String(owner.owner.user.id);
    case 'repo':
      return owner.repos[repoVisibility];
    case 'repoGit':
      return `${owner.repos[repoVisibility]}.git`;
    case 'team':
      return String(owner.teamId);
    case 'orgHook':
      return String(owner.orgHookId);
    case 'label':
      return String(owner.labelId);
    case 'secret':
      return owner.secret;
    case 'variable':
      return owner.variable;
    case 'generic':
      return 'generic';
    case 'package':
      return cell.ownerKind === 'user' ? owner.userPackage : owner.orgPackage;
    case 'packageVersion':
      return '1.0.0';
    case 'packageFile':
      return 'file.bin';
    case 'issue':
      return '1';
    case 'orgMember':
      return world.users.orgMember.user.name;
    case 'teamMember':
      return world.users.teamMember.user.name;
    case 'publicMember':
      return world.users.teamMember.user.name;
    case 'adminHook':
      return String(world.adminHookId);
    case 'quotaGroup':
      return world.quotaGroup;
    case 'quotaRule':
      return world.quotaRule;
    case 'cronTask':
      return 'archive_cleanup';
    case 'thread':
      return String(world.threadId);
    case 'avatarHash':
      return world.avatarHash;
    case 'docsAsset':
      return 'swagger-ui.css';
    case 'gitignore':
      return 'Node';
    case 'missingRef':
      return 'no-such-ref';
    case 'diff':
      return 'diff';
    case 'labelTemplate':
      return 'Default';
    case 'license':
      return 'MIT';
    case 'new:team':
      return String(await makeTeam(visibility));
    case 'new:teamWithMember': {
      const id = await makeTeam(visibility);
      await call('put', `/api/v1/teams/${id}/members/${world.users.orgMember.user.name}`, asOwner(visibility));
      return String(id);
    }
    case 'new:teamWithRepo': {
      const id = await makeTeam(visibility);
      await call('put', `/api/v1/teams/${id}/repos/${org}/${owner.repos[repoVisibility]}`, asOwner(visibility));
      return String(id);
    }
    case 'new:repo':
      return makeRepo(visibility, repoVisibility);
    case 'new:orgHook':
      return String(await makeOrgHook(visibility));
    case 'new:label':
      return String(await makeLabel(visibility));
    case 'new:secret':
      return makeSecret(visibility);
    case 'new:variable':
      return makeVariable(visibility);
    case 'new:variableName':
      return uniqueName('VAR_').toUpperCase();
    case 'new:package':
      return cell.ownerKind === 'user'
        ? makePackage(owner.owner.user.name, owner.owner.auth)
        : makePackage(org, owner.owner.auth);
    case 'new:packageVersion':
      return uniqueName('2.0.');
    case 'new:member': {
      const user = await makeUser();
      await addTestOrgMember(
        world.t,
        await world.t.context.db.prisma.user.findFirstOrThrow({ where: { name: org } }),
        user.user,
      );
      return user.user.name;
    }
    case 'new:user':
      return (await makeUser()).user.name;
    case 'new:blockedUser': {
      const user = await makeUser();
      await call('put', `/api/v1/orgs/${org}/block/${user.user.name}`, asOwner(visibility));
      return user.user.name;
    }
    case 'new:ownerUserOfVisibility':
      return (await makeUser(visibility)).user.name;
    case 'new:adminHook': {
      const body = {
        type: 'gitea',
        config: { url: 'https://hooks.example/admin', content_type: 'json', is_system_webhook: 'true' },
        events: ['push'],
      };
      return String((await call('post', '/api/v1/admin/hooks', asAdmin(), body)).id);
    }
    case 'new:quotaGroup':
      return makeQuotaGroup();
    case 'new:quotaGroupWithUser': {
      const group = await makeQuotaGroup();
      await call('put', `/api/v1/admin/quota/groups/${group}/users/${ownerName(cell)}`, asAdmin());
      return group;
    }
    case 'new:quotaGroupWithRule': {
      const group = await makeQuotaGroup();
      await call('put', `/api/v1/admin/quota/groups/${group}/rules/${world.quotaRule}`, asAdmin());
      return group;
    }
    case 'new:quotaRule':
      return makeQuotaRule();
    case 'new:publicKey': {
      const url = `/api/v1/admin/users/${ownerName(cell)}/keys`;
      return String((await call('post', url, asAdmin(), { key: newPublicKey(), title: uniqueName('key') })).id);
    }
    case 'new:unadopted': {
      const name = uniqueName('unadopted');
      const dir = path.join(world.t.context.settings.repository.ROOT, ownerName(cell).toLowerCase(), `${name}.git`);
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      execFileSync('git', ['init', '-q', '--bare', dir]);
      return name;
    }
    case 'new:topicName':
      return uniqueName('topic');
    case 'new:topic': {
      const topic = uniqueName('topic');
      await call('put', `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/topics/${topic}`, asOwner(visibility));
      return topic;
    }
    case 'new:repoLabel': {
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/labels`;
      return String((await call('post', url, asOwner(visibility), { name: uniqueName('l'), color: 'fff' })).id);
    }
    case 'new:milestone': {
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/milestones`;
      return String((await call('post', url, asOwner(visibility), { title: uniqueName('m') })).id);
    }
    case 'new:repoHook': {
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/hooks`;
      const body = {
        type: 'gitea',
        config: { url: 'https://hooks.example/r', content_type: 'json' },
        events: ['push'],
      };
      return String((await call('post', url, asOwner(visibility), body)).id);
    }
    case 'new:comment': {
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/issues/1/comments`;
      return String((await call('post', url, asOwner(visibility), { body: 'a comment' })).id);
    }
    case 'new:repoSecret': {
      const name = uniqueName('SECRET_').toUpperCase();
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/actions/secrets/${name}`;
      await call('put', url, asOwner(visibility), { data: 'value' });
      return name;
    }
    case 'new:repoVariable': {
      const name = uniqueName('VAR_').toUpperCase();
      const url = `/api/v1/repos/${org}/${owner.repos[repoVisibility]}/actions/variables/${name}`;
      await call('post', url, asOwner(visibility), { value: 'value' });
      return name;
    }
    case 'repoId': {
      const where = { lowerName: owner.repos[repoVisibility].toLowerCase() };
      return String((await world.t.context.db.prisma.repository.findFirstOrThrow({ where })).id);
    }
    case 'teamName':
      return owner.teamName;
    case 'new:teamName': {
      const id = await makeTeam(visibility);
      return (await world.t.context.db.prisma.team.findUniqueOrThrow({ where: { id } })).name;
    }
    case 'new:teamOfRepo': {
      const id = await makeTeam(visibility);
      await call('put', `/api/v1/teams/${id}/repos/${org}/${owner.repos[repoVisibility]}`, asOwner(visibility));
      return (await world.t.context.db.prisma.team.findUniqueOrThrow({ where: { id } })).name;
    }
    case 'new:followedUser':
      return (await makeUser()).user.name;
    case 'new:token': {
      const name = uniqueName('token');
      await world.t.context.db.prisma.accessToken.create({
        data: {
          userId: owner.owner.user.id,
          name,
          tokenHash: uniqueName('hash'),
          tokenLastEight: uniqueName('').slice(0, 8),
          scope: 'all',
        },
      });
      return name;
    }
  }
}

export async function buildWorld(): Promise<void> {
  const t = await startTestApp();
  world = { t } as World;
  world.users = {
    outsider: await createTestUser(t),
    orgMember: await createTestUser(t),
    teamMember: await createTestUser(t),
    siteAdmin: await createTestUser(t, { admin: true }),
  };
  world.owners = {} as World['owners'];
  for (const [index, visibility] of OWNER_VISIBILITIES.entries()) {
    const owner = await createTestUser(t, { fields: { visibility: index } });
    const org = await createTestOrg(t, owner.user, { visibility: index as 0 | 1 | 2 });
    world.owners[visibility] = {
      owner,
      org: org.name,
      auth: {
        orgOwner: owner.auth,
        publicOnlyToken: `token ${await createToken(t, owner.user, 'all,public-only')}`,
        readOnlyToken: `token ${await createToken(t, owner.user, READ_EVERYTHING)}`,
      },
    } as OwnerWorld;
    const o = world.owners[visibility];
    // The org member sits in a team without repositories; the team member, whose membership is public, in a write
    // team over all of them.
    await addTestOrgMember(t, org, world.users.orgMember.user);
    o.teamId = await makeTeam(visibility, {
      permission: 'write',
      units: ['repo.code', 'repo.packages'],
      includes_all_repositories: true,
    });
    o.teamName = (await t.context.db.prisma.team.findUniqueOrThrow({ where: { id: o.teamId } })).name;
    await call('put', `/api/v1/teams/${o.teamId}/members/${world.users.teamMember.user.name}`, owner.auth);
    await t.context.db.prisma.orgUser.updateMany({
      where: { orgId: org.id, userId: world.users.teamMember.user.id },
      data: { isPublic: true },
    });
    o.repos = {
      public: await makeRepo(visibility, 'public', true),
      private: await makeRepo(visibility, 'private', true),
    };
    for (const repo of Object.values(o.repos)) {
      await call('post', `/api/v1/repos/${org.name}/${repo}/issues`, owner.auth, { title: 'the first issue' });
    }
    o.orgHookId = await makeOrgHook(visibility);
    o.labelId = await makeLabel(visibility);
    o.secret = await makeSecret(visibility);
    o.variable = await makeVariable(visibility);
    o.orgPackage = await makePackage(org.name, owner.auth);
    o.userPackage = await makePackage(owner.user.name, owner.auth);
  }
  // Actors (activitypubPerson) exist once the background worker made their users' key pairs.
  await t.context.services.activityPub.fillMissingKeys(100);
  const admin = world.users.siteAdmin.auth;
  world.adminHookId = Number(
    await resolve('new:adminHook', { visibility: 'public', repoVisibility: 'public', ownerKind: 'org' }),
  );
  world.quotaGroup = await makeQuotaGroup();
  world.quotaRule = await makeQuotaRule();
  // A notification thread of the public owner: someone else opens an issue in a repository the owner watches.
  const publicOwner = world.owners.public;
  await call(
    'put',
    `/api/v1/repos/${publicOwner.org}/${publicOwner.repos.public}/subscription`,
    publicOwner.owner.auth,
  );
  await call(
    'post',
    `/api/v1/repos/${publicOwner.org}/${publicOwner.repos.public}/issues`,
    world.users.teamMember.auth,
    { title: 'notify the owner' },
  );
  const threads = (
    await t.request().get('/api/v1/notifications').set('Authorization', publicOwner.owner.auth).expect(200)
  ).body as { id: number }[];
  if (threads.length === 0) throw new Error('fixture: the public owner has no notification thread');
  world.threadId = threads[0].id;
  await call('post', `/api/v1/orgs/${publicOwner.org}/avatar`, admin, { image: PNG_BASE64 });
  const avatarUrl = (await t.request().get(`/api/v1/orgs/${publicOwner.org}`).expect(200)).body.avatar_url as string;
  world.avatarHash = new URL(avatarUrl).pathname.split('/').pop() ?? '';
}

export const closeWorld = () => world.t.close();

function authOf(caller: Exclude<CallerName, 'anonymous'>, visibility: OwnerVisibility): string {
  if (caller === 'orgOwner' || caller === 'publicOnlyToken' || caller === 'readOnlyToken')
    return world.owners[visibility].auth[caller];
  return world.users[caller].auth;
}

/**
 * One caller's request. Throwaway values are kept in `made` across the callers of a cell until a request succeeds
 * with them: a refused request leaves its throwaway untouched for the next caller.
 */
async function statusOf(row: MatrixRow, caller: CallerName, cell: Cell, made: Map<string, string>): Promise<number> {
  const operation = OPERATIONS[row.operation];
  let url: string = operation.path;
  for (const [placeholder, param] of operation.path.matchAll(/\{(\w+)\}/g)) {
    const value = row.params?.[param] ?? defaultValue(param, cell);
    if (!made.has(param)) made.set(param, await resolve(value, cell));
    const resolved = made.get(param) ?? '';
    if (!value.startsWith('new:')) made.delete(param);
    url = url.replace(placeholder, encodeURIComponent(resolved));
  }
  let request = world.t.request()[operation.method as 'get'](url);
  if (row.query) request = request.query(row.query);
  if (caller !== 'anonymous') request = request.set('Authorization', authOf(caller, cell.visibility));
  const body = typeof row.body === 'function' ? row.body() : row.body;
  if (operation.body === 'stream')
    request = request.set('Content-Type', 'application/octet-stream').send(Buffer.from(String(body ?? '')));
  else if (operation.body === 'text') request = request.set('Content-Type', 'text/plain').send(String(body ?? ''));
  else if (body !== undefined) request = request.send(body);
  const { status } = await request.redirects(0);
  if (status < 300) made.clear();
  return status;
}

/** Each cell of the rows: a label, the row, the cell and the statuses expected of the callers. */
function cellsOf(rows: readonly MatrixRow[]): [string, MatrixRow, Cell, Row][] {
  return rows.flatMap((row) => {
    const { method, path: route } = OPERATIONS[row.operation];
    const name = `${row.operation} ${method.toUpperCase()} ${route}`;
    const ownerKind = row.owner ?? 'org';
    const expected = row.expected;
    if ('anyOwner' in expected)
      return [[name, row, { visibility: 'public', repoVisibility: 'public', ownerKind }, expected.anyOwner]];
    const byOwner = (byOwnerRows: ByOwner, repoVisibility: RepoVisibility, label: string) =>
      OWNER_VISIBILITIES.map((visibility): [string, MatrixRow, Cell, Row] => [
        `${name} on ${label}a ${visibility} ${ownerKind === 'user' ? 'user' : 'organization'}`,
        row,
        { visibility, repoVisibility, ownerKind },
        byOwnerRows[visibility],
      ]);
    if ('byOwner' in expected) return byOwner(expected.byOwner, 'public', '');
    return REPO_VISIBILITIES.flatMap((repoVisibility) =>
      byOwner(expected.byRepo[repoVisibility], repoVisibility, `a ${repoVisibility} repository of `),
    );
  });
}

/** Declares the tests of one area: every cell, every caller. */
export function describeMatrix(area: string, rows: readonly MatrixRow[]): void {
  // Building the world is a few hundred requests: on a loaded machine it needs more than the default minute.
  beforeAll(buildWorld, 180_000);
  afterAll(closeWorld);
  describe(`authorization matrix: ${area}`, () => {
    it.each(cellsOf(rows))('%s', async (_label, row, cell, expectedRow) => {
      const actual: Record<string, number> = {};
      const expected: Record<string, number> = {};
      const made = new Map<string, string>();
      for (const [index, caller] of CALLERS.entries()) {
        actual[caller] = await statusOf(row, caller, cell, made);
        expected[caller] = expectedRow[index];
      }
      expect(actual).toEqual(expected);
    });
  });
}
