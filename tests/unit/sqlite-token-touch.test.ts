// Recording a token's use on SQLite never waits for the write lock: the hot statements run synchronously, so a wait
// there would stop the event loop — and with it the transaction holding the lock — for the whole busy timeout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { openDatabase, type Database } from '../../src/infra/database/database.ts';
import { migrateDatabase } from '../../src/infra/database/migrate.ts';

let dir: string;
let database: Database;
let tokenId: number;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-token-touch-'));
  const target = { provider: 'sqlite' as const, file: path.join(dir, 'anvil.db') };
  await migrateDatabase(target);
  database = openDatabase(target);
  const user = await database.prisma.user.create({
    data: { name: 'toucher', lowerName: 'toucher', email: 't@example.com', passwordHash: '' },
  });
  const token = await database.prisma.accessToken.create({
    data: { userId: user.id, name: 'ci', tokenHash: 'digest', tokenLastEight: '12345678', updatedAt: new Date(0) },
  });
  tokenId = token.id;
});
afterAll(async () => {
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const lastUse = async () => (await database.prisma.accessToken.findUniqueOrThrow({ where: { id: tokenId } })).updatedAt;

it('skips the touch while another connection holds the write lock, and records it once the lock is free', async () => {
  const other = new BetterSqlite3(path.join(dir, 'anvil.db'));
  other.exec('BEGIN IMMEDIATE');
  // With the 10 s busy timeout this would not return before the test's own 5 s timeout.
  await database.hot.touchToken(tokenId, new Date('2026-01-02T03:04:05Z'));
  other.exec('COMMIT');
  other.close();
  expect(await lastUse()).toEqual(new Date(0));

  await database.hot.touchToken(tokenId, new Date('2026-01-02T03:04:05Z'));
  expect(await lastUse()).toEqual(new Date('2026-01-02T03:04:05Z'));
});
