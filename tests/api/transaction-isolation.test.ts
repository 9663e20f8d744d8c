// A transaction that is open does not take in the writes and reads other requests make meanwhile: on SQLite, Prisma's
// adapter runs everything on one connection, and a write made while a transaction waited used to commit or roll back
// with that transaction — a token acknowledged 201 was gone after an unrelated rollback.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { sleep } from '../helpers/hook-receiver.ts';
import { startSecondApp, type SecondApp } from '../helpers/second-app.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('writes beside an open transaction', () => {
  let owner: TestUser;

  beforeAll(async () => {
    owner = await createTestUser(t);
  });

  /** Opens a transaction that writes a job row, and rolls it back when `rollBack` is called. */
  function heldTransaction() {
    let rollBack!: () => void;
    const released = new Promise<void>((resolve) => (rollBack = resolve));
    const ended = t.context.transactions
      .run(async (repos) => {
        await repos.jobs.enqueue('held-transaction', {});
        await released;
        throw new Error('rolled back on purpose');
      })
      .catch((error: Error) => error.message);
    return { rollBack, ended };
  }

  it('a write acknowledged while another transaction is open survives that transaction rolling back', async () => {
    const held = heldTransaction();
    await sleep(50); // the transaction has written and waits
    const created = t
      .request()
      .post(`/api/v1/users/${owner.user.name}/tokens`)
      .auth(owner.user.name, owner.password)
      .send({ name: 'made-beside', scopes: ['read:user'] })
      .then((res) => res);
    // A Prisma query runs when it is first awaited: `then` starts it now.
    const outsideWrite = t.context.db.prisma.job
      .create({ data: { kind: 'outside', payload: '{}' } })
      .then((job) => job);
    await sleep(100);
    held.rollBack();
    expect(await held.ended).toBe('rolled back on purpose');
    expect((await created).status).toBe(201);
    await outsideWrite;

    const tokens = await t
      .request()
      .get(`/api/v1/users/${owner.user.name}/tokens`)
      .auth(owner.user.name, owner.password);
    expect(tokens.status).toBe(200);
    expect(tokens.body.map((token: { name: string }) => token.name)).toContain('made-beside');
    const jobs = await t.context.db.prisma.job.findMany({ where: { kind: { in: ['outside', 'held-transaction'] } } });
    expect(jobs.map((job) => job.kind)).toEqual(['outside']);
  });

  it('a read outside the transaction does not see its rows before it commits', async () => {
    const held = heldTransaction();
    await sleep(50);
    const read = t.context.db.prisma.job.count({ where: { kind: 'held-transaction' } }).then((count) => count);
    await sleep(50);
    held.rollBack();
    await held.ended;
    expect(await read).toBe(0);
  });
});

describe('two connections to one database in one process', () => {
  let second: SecondApp;

  beforeAll(async () => {
    second = await startSecondApp(t);
  });
  afterAll(async () => {
    await second?.close();
  });

  it("a write waiting for the other connection's lock lets that connection finish and then succeeds", async () => {
    // On SQLite the first connection's transaction holds the write lock across a timer; a wait for that lock inside
    // SQLite would stop this process until it timed out, so that timer could never fire and the write would fail.
    let commit!: () => void;
    let holding!: () => void;
    const locked = new Promise<void>((resolve) => (holding = resolve));
    const committed = t.context.transactions.run(async (repos) => {
      await repos.jobs.enqueue('held-lock', {});
      await new Promise<void>((resolve) => {
        commit = resolve;
        holding();
      });
    });
    // However slow the machine, the other write starts while the first transaction holds the lock.
    await locked;
    const write = second.context.db.prisma.job.create({ data: { kind: 'waited', payload: '{}' } }).then((job) => job);
    setTimeout(() => commit(), 200);
    await committed;
    await write;
    const kinds = await t.context.db.prisma.job.findMany({ where: { kind: { in: ['held-lock', 'waited'] } } });
    expect(kinds.map((job) => job.kind).sort()).toEqual(['held-lock', 'waited']);
  });
});
