// GET /admin/cron, POST /admin/cron/{task}, the real task bodies (mirrors, sizes, gc) and the lease.
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { User } from '../../src/db/prisma.ts';
import { cronTasks, type CronTaskDefinition } from '../../src/services/cron/tasks.ts';
import { CronService } from '../../src/services/cron.service.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let admin: TestUser;
let alice: TestUser;
let org: User;

beforeAll(async () => {
  // Mirrors in these tests fetch from this same app on 127.0.0.1.
  t = await startTestApp({ ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true' });
  ({ server, base } = await listen(t));
  admin = await createTestUser(t, { admin: true });
  alice = await createTestUser(t);
  org = await createTestOrg(t, admin.user);
});
afterAll(async () => {
  await t.context.services.cron.drain();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** Forgejo's tasks with default settings, in list order: name, schedule, scheduled by default. */
const FORGEJO_TASKS: Array<[string, string, boolean]> = [
  ['update_mirrors', '@every 10m', true],
  ['repo_health_check', '@midnight', true],
  ['check_repo_stats', '@midnight', true],
  ['archive_cleanup', '@midnight', true],
  ['sync_external_users', '@midnight', true],
  ['deleted_branches_cleanup', '@midnight', true],
  ['update_migration_poster_id', '@midnight', true],
  ['cleanup_hook_task_table', '@midnight', true],
  ['cleanup_packages', '@midnight', true],
  ['delete_inactive_accounts', '@annually', false],
  ['delete_repo_archives', '@annually', false],
  ['git_gc_repos', '@every 72h', false],
  ['resync_all_sshkeys', '@every 72h', false],
  ['resync_all_sshprincipals', '@every 72h', false],
  ['resync_all_hooks', '@every 72h', false],
  ['reinit_missing_repos', '@every 72h', false],
  ['delete_missing_repos', '@every 72h', false],
  ['delete_generated_repository_avatars', '@every 72h', false],
  ['delete_old_actions', '@every 168h', false],
  ['update_checker', '@every 168h', true],
  ['delete_old_system_notices', '@every 168h', false],
  ['rebuild_issue_indexer', '@annually', false],
  ['stop_zombie_tasks', '@every 5m', true],
  ['stop_endless_tasks', '@every 30m', true],
  ['cancel_abandoned_jobs', '@every 6h', true],
  ['start_schedule_tasks', '@every 1m', true],
  ['cleanup_actions', '@midnight', true],
];

interface CronEntry {
  name: string;
  schedule: string;
  next: string;
  prev: string;
  exec_times: number;
}

async function cronList(query = ''): Promise<CronEntry[]> {
  return (await t.request().get(`/api/v1/admin/cron${query}`).set('Authorization', admin.auth).expect(200)).body;
}

async function entry(name: string): Promise<CronEntry> {
  return (await cronList()).find((task) => task.name === name)!;
}

async function runTask(name: string): Promise<void> {
  await t.request().post(`/api/v1/admin/cron/${name}`).set('Authorization', admin.auth).expect(204);
}

/** Polls until `check` passes (it throws until then). */
async function eventually<T>(check: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Waits until no process holds the task's lease: the run POST started is over. */
async function finished(name: string): Promise<void> {
  await eventually(async () => {
    const row = await t.context.db.prisma.cronTask.findUnique({ where: { name } });
    expect(row?.lockedBy).toBe('');
  });
}

async function createRepo(owner: TestUser, name: string) {
  return (
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name, auto_init: true })
      .expect(201)
  ).body;
}

async function commitAndPush(dir: string, file: string, remote: string) {
  fs.writeFileSync(path.join(dir, file), `content of ${file}\n`);
  await gitOk(['add', file], dir);
  await gitOk(['commit', '-q', '-m', `add ${file}`], dir);
  await gitOk(['push', '-q', remote, 'HEAD:refs/heads/main'], dir);
  return (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
}

const remoteHead = async (url: string) => (await gitOk(['ls-remote', url, 'refs/heads/main'])).split('\t')[0];

describe('GET /admin/cron', () => {
  it('lists the registry, which is Forgejo’s 27 tasks with their schedules; disabled tasks show "-" and zero times', async () => {
    const res = await t.request().get('/api/v1/admin/cron').set('Authorization', admin.auth).expect(200);
    expect(res.headers['x-total-count']).toBe('27');
    expect(res.headers.link).toBeUndefined();
    const list: CronEntry[] = res.body;
    expect(list.map((task) => task.name)).toEqual(cronTasks(t.context.settings).map((task) => task.name));
    expect(list.map((task) => [task.name, task.schedule])).toEqual(
      FORGEJO_TASKS.map(([name, schedule, enabled]) => [name, enabled ? schedule : '-']),
    );
    const now = Date.now();
    for (const task of list) {
      const enabled = task.schedule !== '-';
      if (enabled) expect(new Date(task.next).getTime()).toBeGreaterThan(now - 60_000);
      else expect(task.next).toBe(ZERO_TIME);
      if (task.exec_times === 0) expect(task.prev).toBe(ZERO_TIME);
    }
    const mirrors = list.find((task) => task.name === 'update_mirrors')!;
    expect(new Date(mirrors.next).getTime()).toBeLessThanOrEqual(now + 10 * 60_000 + 5_000);
  });

  it('pages only when page is given', async () => {
    const all = await cronList();
    const res = await t
      .request()
      .get('/api/v1/admin/cron?page=2&limit=10')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(res.headers['x-total-count']).toBe('27');
    expect(res.body.map((task: CronEntry) => task.name)).toEqual(all.slice(10, 20).map((task) => task.name));
    expect((await cronList('?page=3&limit=10')).map((task) => task.name)).toEqual(
      all.slice(20).map((task) => task.name),
    );
    expect(await cronList('?limit=5')).toHaveLength(27);
  });

  it('is for site administrators only', async () => {
    await t.request().get('/api/v1/admin/cron').expect(401);
    await t.request().get('/api/v1/admin/cron').set('Authorization', alice.auth).expect(403);
    await t.request().post('/api/v1/admin/cron/check_repo_stats').set('Authorization', alice.auth).expect(403);
  });
});

describe('POST /admin/cron/{task}', () => {
  it('answers 404 for a task that does not exist', async () => {
    const res = await t.request().post('/api/v1/admin/cron/no_such_task').set('Authorization', admin.auth).expect(404);
    expect(res.body.message).toMatch(/no_such_task/);
  });

  it('runs update_mirrors: a due mirror picks up a new commit of its source and its feed shows the sync', async () => {
    await createRepo(alice, 'upstream');
    const source = `${base}${alice.user.name}/upstream.git`;
    const migrate = (repo_name: string) =>
      t
        .request()
        .post('/api/v1/repos/migrate')
        .set('Authorization', admin.auth)
        .send({ clone_addr: source, repo_name, repo_owner: org.name, mirror: true, mirror_interval: '10m' })
        .expect(201);
    const due = (await migrate('mirror-due')).body;
    await migrate('mirror-later');
    const before = await entry('update_mirrors');

    const work = path.join(tempDir(), 'w');
    const pushUrl = `${withCredentials(base, alice.token)}${alice.user.name}/upstream.git`;
    await gitOk(['clone', '-q', pushUrl, work]);
    const oldHead = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    const newHead = await commitAndPush(work, 'news.txt', pushUrl);
    // Ten minutes pass for one of the two mirrors.
    await t.context.db.prisma.mirror.update({
      where: { repoId: due.id },
      data: { nextUpdateAt: new Date(Date.now() - 1000) },
    });

    const started = Date.now();
    await runTask('update_mirrors');
    await eventually(async () => expect(await remoteHead(`${base}${org.name}/mirror-due.git`)).toBe(newHead));
    await finished('update_mirrors');

    expect(await remoteHead(`${base}${org.name}/mirror-later.git`)).toBe(oldHead);
    const mirror = await t.context.db.prisma.mirror.findUniqueOrThrow({ where: { repoId: due.id } });
    expect(mirror.nextUpdateAt.getTime()).toBeGreaterThanOrEqual(started + 600_000 - 1000);
    expect(mirror.updatedAt.getTime()).toBeGreaterThanOrEqual(started - 1000);
    const repo = (
      await t.request().get(`/api/v1/repos/${org.name}/mirror-due`).set('Authorization', admin.auth).expect(200)
    ).body;
    expect(new Date(repo.mirror_updated).getTime()).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);

    const after = await entry('update_mirrors');
    expect(after.exec_times).toBe(before.exec_times + 1);
    expect(new Date(after.prev).getTime()).toBeGreaterThanOrEqual(Math.floor(started / 1000) * 1000);
    expect(after.schedule).toBe('@every 10m');

    const feed = (
      await t.request().get(`/api/v1/orgs/${org.name}/activities/feeds`).set('Authorization', admin.auth).expect(200)
    ).body;
    const sync = feed.find((action: { op_type: string }) => action.op_type === 'mirror_sync_push');
    expect(sync).toMatchObject({ repo: { name: 'mirror-due' }, ref_name: 'refs/heads/main', act_user_id: org.id });
    expect(JSON.parse(sync.content)).toMatchObject({ Len: 1, HeadCommit: { Sha1: newHead, Message: 'add news.txt' } });
    const syncedRepos = feed
      .filter((action: { op_type: string }) => action.op_type.startsWith('mirror_sync'))
      .map((action: { repo: { name: string } }) => action.repo.name);
    expect(syncedRepos).toEqual(['mirror-due']);
  });

  it('runs a disabled task on demand: git_gc_repos packs loose objects; it stays unscheduled', async () => {
    await createRepo(alice, 'loose');
    const dir = path.join(t.context.settings.repository.ROOT, alice.user.name.toLowerCase(), 'loose.git');
    const looseObjects = async () =>
      Number(/^count: (\d+)$/m.exec(await gitOk(['--git-dir', dir, 'count-objects', '-v']))![1]);
    expect(await looseObjects()).toBeGreaterThan(0);
    await runTask('git_gc_repos');
    await finished('git_gc_repos');
    expect(await looseObjects()).toBe(0);
    expect(await entry('git_gc_repos')).toMatchObject({ schedule: '-', next: ZERO_TIME, exec_times: 1 });
    expect((await entry('git_gc_repos')).prev).not.toBe(ZERO_TIME);
  });

  it('runs check_repo_stats: sizes are read again from disk', async () => {
    const created = await createRepo(alice, 'sized');
    await t.context.db.prisma.repository.update({ where: { id: created.id }, data: { size: 0n, gitSize: 0n } });
    await runTask('check_repo_stats');
    await finished('check_repo_stats');
    const row = await t.context.db.prisma.repository.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.gitSize).toBeGreaterThan(0n);
    expect(row.size).toBe(row.gitSize);
  });

  it('runs reinit_missing_repos: a repository whose directory vanished is empty again, not gone', async () => {
    const created = await createRepo(alice, 'vanished');
    const dir = path.join(t.context.settings.repository.ROOT, alice.user.name.toLowerCase(), 'vanished.git');
    fs.rmSync(dir, { recursive: true });
    await runTask('reinit_missing_repos');
    await finished('reinit_missing_repos');
    expect(fs.existsSync(path.join(dir, 'HEAD'))).toBe(true);
    const repo = (await t.request().get(`/api/v1/repos/${alice.user.name}/vanished`).expect(200)).body;
    expect(repo).toMatchObject({ id: created.id, empty: true });
    expect((await git(['clone', '-q', `${base}${alice.user.name}/vanished.git`, path.join(tempDir(), 'c')])).code).toBe(
      0,
    );
  });
});

describe('the lease', () => {
  /** A task whose body waits until released, so two runs overlap for sure. */
  function blockingTask(name: string) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const definition: CronTaskDefinition = {
      name,
      schedule: '@every 1m',
      enabled: true,
      run: async () => {
        runs++;
        await gate;
      },
    };
    return { definition, release, runs: () => runs };
  }

  /** Two services on one database behave as two Anvil processes. */
  const twoProcesses = (definition: CronTaskDefinition) =>
    [0, 1].map(
      () =>
        new CronService(
          t.context,
          {
            maintenance: t.context.services.maintenance,
            hookDeliveries: t.context.services.hookDeliveries,
            containerBlobs: t.context.services.containerBlobs,
            log: t.context.log,
          },
          [definition],
        ),
    );

  it('lets only one of two processes run a task at a time', async () => {
    const task = blockingTask('test_lease_manual');
    const [first, second] = twoProcesses(task.definition);
    const runs = [first.runNow('test_lease_manual'), second.runNow('test_lease_manual')];
    // The run that lost gives up at once, while the winner is still held at the gate.
    expect(await Promise.race(runs)).toBe(false);
    await eventually(async () => expect(task.runs()).toBe(1));
    const row = await t.context.db.prisma.cronTask.findUniqueOrThrow({ where: { name: 'test_lease_manual' } });
    expect([first.holder, second.holder]).toContain(row.lockedBy);
    task.release();
    expect((await Promise.all(runs)).sort()).toEqual([false, true]);
    expect(task.runs()).toBe(1);
    expect(
      await t.context.db.prisma.cronTask.findUniqueOrThrow({ where: { name: 'test_lease_manual' } }),
    ).toMatchObject({ execTimes: 1, lockedBy: '', lockedUntil: null });
    // Free again: the next run goes ahead.
    const again = blockingTask('test_lease_manual');
    again.release();
    expect(
      await new CronService(
        t.context,
        {
          maintenance: t.context.services.maintenance,
          hookDeliveries: t.context.services.hookDeliveries,
          containerBlobs: t.context.services.containerBlobs,
          log: t.context.log,
        },
        [again.definition],
      ).runNow('test_lease_manual'),
    ).toBe(true);
  });

  it('starts a due task in one process only and moves its next run on; an expired lease is taken over', async () => {
    const task = blockingTask('test_lease_scheduled');
    const [first, second] = twoProcesses(task.definition);
    const past = new Date(Date.now() - 1000);
    await t.context.db.prisma.cronTask.create({
      data: { name: 'test_lease_scheduled', nextRunAt: past, lockedUntil: past, lockedBy: 'a-process-that-died' },
    });
    const started = await Promise.all([first.startDue(), second.startDue()]);
    expect(started.flat()).toEqual(['test_lease_scheduled']);
    await eventually(async () => expect(task.runs()).toBe(1));
    const row = await t.context.db.prisma.cronTask.findUniqueOrThrow({ where: { name: 'test_lease_scheduled' } });
    expect(row.nextRunAt!.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await first.startDue(new Date(Date.now() + 2 * 60_000))).toEqual([]); // due again, but still running
    task.release();
    await Promise.all([first.drain(), second.drain()]);
    expect(task.runs()).toBe(1);
    expect(
      await t.context.db.prisma.cronTask.findUniqueOrThrow({ where: { name: 'test_lease_scheduled' } }),
    ).toMatchObject({ execTimes: 1, lockedBy: '' });
  });

  it('hands the lease of a run back when its process is cut off at shutdown, so another process runs the task at once', async () => {
    const task = blockingTask('test_lease_handed_back');
    const [cutOff, other] = twoProcesses(task.definition);
    const first = cutOff.runNow('test_lease_handed_back');
    await eventually(async () => expect(task.runs()).toBe(1));
    expect(await other.runNow('test_lease_handed_back')).toBe(false);
    await cutOff.handBackLeases();
    expect(
      await t.context.db.prisma.cronTask.findUniqueOrThrow({ where: { name: 'test_lease_handed_back' } }),
    ).toMatchObject({ lockedBy: '', lockedUntil: null });
    const second = other.runNow('test_lease_handed_back');
    await eventually(async () => expect(task.runs()).toBe(2));
    task.release();
    expect(await Promise.all([first, second])).toEqual([true, true]);
  });
});
