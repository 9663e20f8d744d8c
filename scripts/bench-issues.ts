// Bench rows for issues and notifications (`npm run bench`): seeded with direct SQL, measured one request at a time.
// BENCH_ISSUES issues over BENCH_ISSUE_REPOS repositories; BENCH_NOTIFICATIONS threads over the seeded users, of
// which BENCH_USER_THREADS belong to the measured (non-admin) user.
import BetterSqlite3 from 'better-sqlite3';
import { hashAccessToken, lastEight, newAccessToken } from '../src/auth/access-token.ts';

const ISSUES = Number(process.env.BENCH_ISSUES ?? 100_000);
const ISSUE_REPOS = Number(process.env.BENCH_ISSUE_REPOS ?? 1_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 1_000_000);
const USER_THREADS = Number(process.env.BENCH_USER_THREADS ?? 2_000);
const SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 200);

export interface IssueSeed {
  /** A token of user1, an ordinary user. */
  token: string;
  seconds: number;
}

/** Seeds repositories, labels, issues and notification threads; `users` users (ids 1…) already exist. */
export function seedIssuesAndNotifications(file: string, users: number): IssueSeed {
  const started = performance.now();
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  const userIds = (
    db.prepare(`SELECT id FROM "User" WHERE "type" = 0 ORDER BY id LIMIT ?`).all(users) as Array<{ id: number }>
  ).map((r) => r.id);
  const measured = userIds[1];
  const token = newAccessToken();
  db.prepare(
    `INSERT INTO "AccessToken" ("userId", "name", "tokenHash", "tokenLastEight", "scope", "createdAt", "updatedAt") VALUES (?, 'bench-issues', ?, ?, 'all', ?, ?)`,
  ).run(measured, hashAccessToken(token), lastEight(token), iso(now), iso(now));
  const insertRepo = db.prepare(
    `INSERT INTO "Repository" ("ownerId", "ownerName", "name", "lowerName", "isPrivate", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertUnit = db.prepare(`INSERT INTO "RepoUnit" ("repoId", "type") VALUES (?, ?)`);
  const insertLabel = db.prepare(`INSERT INTO "Label" ("repoId", "name", "color") VALUES (?, 'bug', '#ff0000')`);
  const insertIssue = db.prepare(
    `INSERT INTO "Issue" ("repoId", "index", "posterId", "title", "content", "isClosed", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, '', ?, ?, ?)`,
  );
  const insertIssueLabel = db.prepare(`INSERT INTO "IssueLabel" ("issueId", "labelId") VALUES (?, ?)`);
  const insertThread = db.prepare(
    `INSERT INTO "Notification" ("userId", "repoId", "status", "source", "issueId", "createdAt", "updatedAt") VALUES (?, ?, ?, 1, ?, ?, ?)`,
  );
  const issueRepo: number[] = [];
  const firstIssueId = { value: 0 };
  db.transaction(() => {
    const repos: Array<{ id: number; label: number }> = [];
    for (let r = 0; r < ISSUE_REPOS; r++) {
      const ownerId = userIds[r % userIds.length];
      const owner = db.prepare(`SELECT name FROM "User" WHERE id = ?`).get(ownerId) as { name: string };
      // One repository in ten is private: visibility must cost something.
      const id = Number(
        insertRepo.run(ownerId, owner.name, `r${r}`, `r${r}`, r % 10 === 9 ? 1 : 0, iso(now), iso(now)).lastInsertRowid,
      );
      for (const unit of [1, 2, 3]) insertUnit.run(id, unit);
      repos.push({ id, label: Number(insertLabel.run(id).lastInsertRowid) });
    }
    const perRepo = new Map<number, number>();
    for (let i = 0; i < ISSUES; i++) {
      const repo = repos[i % repos.length];
      const index = (perRepo.get(repo.id) ?? 0) + 1;
      perRepo.set(repo.id, index);
      const at = iso(now - (ISSUES - i) * 1000);
      const id = Number(
        insertIssue.run(
          repo.id,
          index,
          userIds[i % userIds.length],
          `issue ${i} word${i % 1000}`,
          i % 5 === 0 ? 1 : 0,
          at,
          at,
        ).lastInsertRowid,
      );
      if (i === 0) firstIssueId.value = id;
      issueRepo.push(repo.id);
      if (i % 10 === 1) insertIssueLabel.run(id, repo.label);
    }
    // Threads: USER_THREADS for the measured user, the rest spread over every other user.
    const others = userIds.filter((id) => id !== measured);
    let written = 0;
    const thread = (userId: number, k: number, slot: number) => {
      const issueOffset = (slot * 7919 + k) % issueRepo.length;
      const at = iso(now - k * 1000);
      insertThread.run(userId, issueRepo[issueOffset], k % 3 === 0 ? 2 : 1, firstIssueId.value + issueOffset, at, at);
      written++;
    };
    for (let k = 0; k < Math.min(USER_THREADS, NOTIFICATIONS); k++) thread(measured, k, 0);
    const perUser = Math.ceil((NOTIFICATIONS - written) / others.length);
    for (let u = 0; u < others.length && written < NOTIFICATIONS; u++) {
      for (let k = 0; k < perUser && written < NOTIFICATIONS; k++) thread(others[u], k, u + 1);
    }
  })();
  db.pragma('optimize');
  db.exec('ANALYZE');
  db.close();
  return { token, seconds: (performance.now() - started) / 1000 };
}

async function latencies(
  url: string,
  headers: Record<string, string>,
): Promise<{ p50: number; p99: number; status: number; total: string }> {
  const first = await fetch(url, { headers });
  await first.text();
  for (let i = 0; i < 10; i++) await (await fetch(url, { headers })).text();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await (await fetch(url, { headers })).text();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99), status: first.status, total: first.headers.get('x-total-count') ?? '' };
}

/** GET /notifications for the user with USER_THREADS threads among NOTIFICATIONS, and issue search for q= and labels=. */
export async function benchIssuesAndNotifications(
  base: string,
  seeded: IssueSeed,
): Promise<Array<{ name: string; p50: number; goal: number }>> {
  const measured: Array<{ name: string; p50: number; goal: number }> = [];
  const auth = { Authorization: `token ${seeded.token}` };
  console.log(
    `\nissues and notifications: ${NOTIFICATIONS} threads (${USER_THREADS} for the measured user), ${ISSUES} issues over ${ISSUE_REPOS} repositories; seeded in ${seeded.seconds.toFixed(0)} s; ${SAMPLES} sequential requests each:`,
  );
  console.log('| request | matches | p50 ms | p99 ms | goal |\n|---|---|---|---|---|');
  const rows = [
    { name: 'GET /user (baseline: the lightest authenticated route)', path: '/api/v1/user', goal: 10 },
    { name: 'GET /notifications', path: '/api/v1/notifications', goal: 10 },
    { name: 'GET /notifications?all=true', path: '/api/v1/notifications?all=true', goal: 10 },
    { name: 'GET /repos/issues/search?q=word7', path: '/api/v1/repos/issues/search?q=word7', goal: 50 },
    { name: 'GET /repos/issues/search?labels=bug', path: '/api/v1/repos/issues/search?labels=bug', goal: 50 },
    { name: 'GET /repos/issues/search', path: '/api/v1/repos/issues/search', goal: 50 },
  ];
  for (const row of rows) {
    const m = await latencies(base + row.path, auth);
    if (m.status !== 200) {
      console.log(`| ${row.name} | answers ${m.status}, not measured | | | |`);
      continue;
    }
    console.log(
      `| ${row.name} | ${m.total} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | p50 < ${row.goal} ms: ${m.p50 < row.goal ? 'met' : 'below'} |`,
    );
    measured.push({ name: row.name, p50: m.p50, goal: row.goal });
  }
  return measured;
}
