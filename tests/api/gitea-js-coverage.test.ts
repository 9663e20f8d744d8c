// gitea-js (the JavaScript client generated from Gitea's swagger) against a running Anvil: every one of its methods
// that maps to an operation of the contract is called through the real HTTP stack with plausible arguments, and
// answers one of the operation's documented statuses (the app validates every JSON answer against the contract,
// and an answer that breaks it is a 500, which no operation documents). The methods with no operation answer 404
// with Forgejo's JSON error body, never 501.
import type { Server } from 'node:http';
import path from 'node:path';
import { giteaApi } from 'gitea-js';
import {
  contractOperations,
  type ContractOperation,
  type GiteaJsMethod,
  listGiteaJsMethods,
  normalisedRoute,
} from '../helpers/gitea-js-methods.ts';
import { bodyFor, collectionKey, pathValue, seedWorld, type World } from '../helpers/gitea-js-world.ts';
import { listen } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

// Raise as operations are added; the goal is 300.
const REACHING_FLOOR = 311;

let t: TestApp;
let server: Server;
let base: string;
let w: World;

const methods = listGiteaJsMethods();
const operations = contractOperations(path.join(__dirname, '../../spec/forgejo-v1.swagger.json'));
const operationOf = (m: GiteaJsMethod) => operations.get(normalisedRoute(m.method, m.path));
const mapped = methods.filter((m) => operationOf(m));
const unmapped = methods.filter((m) => !operationOf(m));

/** Path values that must differ from the defaults: destructive calls aim at spares made for them. */
const PATH_OVERRIDES: Record<string, (w: World) => Record<string, string | number>> = {
  repoDelete: (w) => ({ repo: w.spareRepo }),
  orgDelete: (w) => ({ org: w.spareOrg.name }),
  adminRenameUser: (w) => ({ username: w.spare.user.name }),
  adminDeleteUser: (w) => ({ username: w.strings.get('renamed') ?? w.spare.user.name }),
  repoDeleteBranch: () => ({ branch: 'doomed' }),
  repoDeleteTag: () => ({ tag: 'v0.9' }),
  repoCreateFile: () => ({ filepath: 'src/new.txt' }),
  repoDeleteFile: () => ({ filepath: 'src/new.txt' }),
  orgListTeamRepo: (w) => ({ repo: w.orgRepo }),
  orgAddTeamRepository: (w) => ({ repo: w.orgRepo }),
  orgRemoveTeamRepository: (w) => ({ repo: w.orgRepo }),
  orgPublicizeMember: (w) => ({ username: w.boss.user.name }),
  orgConcealMember: (w) => ({ username: w.boss.user.name }),
  orgIsPublicMember: (w) => ({ username: w.boss.user.name }),
  orgIsMember: (w) => ({ username: w.boss.user.name }),
  orgGetUserPermissions: (w) => ({ username: w.boss.user.name }),
  adminCronRun: () => ({ task: 'check_repo_stats' }),
  repoListTeams: (w) => ({ owner: w.org.name, repo: w.orgRepo }),
  repoCheckTeam: (w) => ({ owner: w.org.name, repo: w.orgRepo, team: 'builders' }),
  repoAddTeam: (w) => ({ owner: w.org.name, repo: w.orgRepo, team: 'builders' }),
  repoDeleteTeam: (w) => ({ owner: w.org.name, repo: w.orgRepo, team: 'builders' }),
};

/**
 * gitea-js sends these methods' JSON bodies without a Content-Type (fetch then says text/plain, which Anvil refuses
 * with 415, Forgejo with 422); a caller names the type.
 */
const UNTYPED_BODIES = [
  'orgUpdateAvatar',
  'userUpdateAvatar',
  'issueCreateIssueBlocking',
  'issueRemoveIssueBlocking',
  'issueCreateIssueDependencies',
  'issueRemoveIssueDependencies',
  'repoCreatePullReviewRequests',
  'repoDeletePullReviewRequests',
];
const OPTIONS: Record<string, object> = Object.fromEntries(
  UNTYPED_BODIES.map((name) => [name, { type: 'application/json' }]),
);

/** Query values for the methods whose query has a required field. */
const QUERIES: Record<string, object> = {
  repoCreateReleaseAttachment: { name: 'tools.zip' },
  topicSearch: { q: 'tool' },
};

/** What a call leaves for later calls, beyond the ids of what it made. */
function remember(m: GiteaJsMethod, data: unknown): void {
  const record = data as Record<string, unknown> | Record<string, unknown>[] | null;
  if (!record || typeof record !== 'object') return;
  if (m.name === 'repoCreateFile')
    w.strings.set('newfile', String((record as { content: { sha: string } }).content.sha));
  if (m.name === 'repoUpdateFile')
    w.strings.set('readme', String((record as { content: { sha: string } }).content.sha));
  const first = Array.isArray(record) ? record[0] : record;
  const key = collectionKey(m.path);
  if (first && typeof first.id === 'number' && (!Array.isArray(record) || !w.ids.has(key))) w.ids.set(key, first.id);
}

function argumentsOf(m: GiteaJsMethod): unknown[] {
  const overrides = PATH_OVERRIDES[m.name]?.(w) ?? {};
  const names = [...m.path.matchAll(/\{([^}]+)\}/g)];
  return m.params.map((param, i) => {
    if (i < names.length) {
      const before = m.path.slice(0, names[i].index);
      return overrides[param] ?? pathValue(w, param, m.path, before);
    }
    if (param === 'query') return QUERIES[m.name];
    if (m.name === 'repoDeleteFile') return { sha: w.strings.get('newfile') ?? '', message: 'remove' };
    return bodyFor(w, m.name) ?? {};
  });
}

interface Answer {
  status: number;
  data: unknown;
  error: unknown;
}

async function call(m: GiteaJsMethod): Promise<Answer> {
  const api = giteaApi(base.replace(/\/$/, ''), { token: w.boss.token }) as unknown as Record<
    string,
    Record<string, (...args: unknown[]) => Promise<Answer>>
  >;
  try {
    const answer = await api[m.group][m.name](...argumentsOf(m), OPTIONS[m.name] ?? {});
    return { status: answer.status, data: answer.data, error: answer.error };
  } catch (failure) {
    if (failure instanceof Response) {
      const answer = failure as Response & Partial<Answer>;
      return { status: answer.status, data: answer.data, error: answer.error };
    }
    throw failure;
  }
}

/** Creations first (shallow paths before deep ones), then reads, edits, and deletions deepest first. */
function order(m: GiteaJsMethod): [number, number] {
  const depth = m.path.split('/').length;
  const phase = { POST: 0, PUT: 0, GET: 1, PATCH: 2, DELETE: 3 }[m.method] ?? 1;
  const late = ['repoDelete', 'orgDelete', 'adminDeleteUser'].includes(m.name) ? 1 : 0;
  return [phase * 2 + late, phase === 3 ? -depth : depth];
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  w = await seedWorld(t);
  const readme = await t
    .request()
    .get(`/api/v1/repos/${w.boss.user.name}/${w.repo}/contents/README.md`)
    .set('Authorization', w.boss.auth)
    .expect(200);
  w.strings.set('readme', readme.body.sha);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('gitea-js 1.23.0', () => {
  it('has 416 methods, and the contract has an operation for at least the floor of them', () => {
    expect(methods).toHaveLength(416);
    console.log(`${mapped.length} of ${methods.length} gitea-js methods reach a route`);
    expect(mapped.length).toBeGreaterThanOrEqual(REACHING_FLOOR);
  });

  it('calls every method that reaches a route, and each answers a documented status', async () => {
    const sorted = [...mapped].sort((a, b) => {
      const [pa, da] = order(a);
      const [pb, db] = order(b);
      return pa - pb || da - db || a.name.localeCompare(b.name);
    });
    const wrong: string[] = [];
    const succeeded: string[] = [];
    for (const m of sorted) {
      const operation = operationOf(m) as ContractOperation;
      const answer = await call(m);
      if (!operation.statuses.includes(answer.status))
        wrong.push(`${m.name} (${operation.id}) answered ${answer.status}: ${JSON.stringify(answer.error)}`);
      else if (answer.status < 300) {
        succeeded.push(m.name);
        remember(m, answer.data);
      }
    }
    console.log(`${succeeded.length} of ${mapped.length} reaching methods succeeded (2xx)`);
    expect(wrong).toEqual([]);
    // Most calls do real work against the seeded world rather than answering 404.
    expect(succeeded.length).toBeGreaterThanOrEqual(Math.floor(mapped.length * 0.8));
  }, 240_000); // some 300 calls one after another, several pushing git: minutes on a loaded CI machine

  it('answers 404 (405 on a path with other operations) with the JSON error body for the other methods', async () => {
    const wrong: string[] = [];
    for (const m of unmapped) {
      const answer = await call(m);
      const body = answer.error as { message?: unknown } | null;
      // 405 where the path is one the contract serves with other methods.
      if (![404, 405].includes(answer.status) || typeof body?.message !== 'string')
        wrong.push(`${m.method} ${m.path} answered ${answer.status}`);
    }
    expect(wrong).toEqual([]);
  });
});
