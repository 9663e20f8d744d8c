// Every seeded user's ActivityPub key pair, written as the server's key worker writes them. Without them a fresh
// server with federation on (the default) spends its first minutes — hours at 10,000 users — making a 3072-bit RSA
// pair per user in its thread pool, a core's worth of CPU taken from whatever the bench measures meanwhile. One pair
// serves every seeded user: the bench signs nothing with them.
import { generateKeyPairSync } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';

export function seedActorKeys(dbFile: string): number {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 3072,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const db = new BetterSqlite3(dbFile);
  try {
    const now = new Date().toISOString().replace('Z', '+00:00');
    return db
      .prepare(
        `INSERT INTO "UserKeyPair" ("userId", "publicKeyPem", "privateKeyPem", "createdAt")
         SELECT u."id", ?, ?, ? FROM "User" u
         WHERE u."type" = 0 AND NOT EXISTS (SELECT 1 FROM "UserKeyPair" k WHERE k."userId" = u."id")`,
      )
      .run(publicKey, privateKey, now).changes;
  } finally {
    db.close();
  }
}
