// What Anvil writes under its data directory is private to the account it runs as: directories 0700, files
// 0600 (database with its -wal and -shm, key, repositories), also a database an earlier version left readable.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('permissions of the data directory', () => {
  let t: TestApp;
  let parent: string;
  let dataDir: string;
  const sqlite = !process.env.TEST_DATABASE_URL;

  beforeAll(async () => {
    // The usual mask, which left everything readable to all before.
    process.umask(0o022);
    parent = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-modes-'));
    dataDir = path.join(parent, 'nested', 'data');
    t = await startTestApp({ ANVIL_DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('makes the directories 0700 and the key and repositories private', async () => {
    const owner = await createTestUser(t);
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'private-bits', auto_init: true })
      .expect(201);
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'repositories'))).toBe(0o700);
    const repoDir = path.join(dataDir, 'repositories', owner.user.lowerName, 'private-bits.git');
    expect(modeOf(repoDir)).toBe(0o700);
    expect(modeOf(path.join(repoDir, 'HEAD'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'secret.key'))).toBe(0o600);
  });

  (sqlite ? it : it.skip)('keeps the SQLite database, its -wal and its -shm at 0600', async () => {
    await createTestUser(t);
    for (const suffix of ['', '-wal', '-shm']) expect(modeOf(path.join(dataDir, `anvil.db${suffix}`))).toBe(0o600);
  });
});

describe('a database an earlier version left readable to all', () => {
  it('is made 0600 when Anvil opens it', async () => {
    if (process.env.TEST_DATABASE_URL) return;
    process.umask(0o022);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-modes-'));
    fs.chmodSync(dataDir, 0o755);
    const first = await startTestApp({ ANVIL_DATA_DIR: dataDir });
    await first.context.db.close();
    await first.context.jobQueue.close();
    fs.chmodSync(path.join(dataDir, 'anvil.db'), 0o644);
    process.umask(0o022);
    const again = await startTestApp({ ANVIL_DATA_DIR: dataDir });
    try {
      expect(modeOf(path.join(dataDir, 'anvil.db'))).toBe(0o600);
    } finally {
      await again.close();
    }
  });
});
