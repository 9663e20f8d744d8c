// CachedStatements: the connection Prisma's SQLite adapter is given. One statement per SQL text, prepared once; a
// trailing `LIMIT ?` written as its integer (a bound LIMIT makes SQLite prepare again on every run); answers and
// errors as better-sqlite3 gives them.
import BetterSqlite3 from 'better-sqlite3';
import { CachedStatements, literalLimit } from '../../src/infra/database/sqlite-statement-cache.ts';

let db: BetterSqlite3.Database;
let connection: CachedStatements;
let prepared: string[];

beforeEach(() => {
  db = new BetterSqlite3(':memory:');
  db.defaultSafeIntegers(true);
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  prepared = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  connection = new CachedStatements(db);
});
afterEach(() => connection.close());

/** As the adapter reads: bind, then rows as arrays with their columns' names. */
function read(sql: string, args: unknown[]): { names: string[]; rows: unknown[] } {
  const statement = connection.prepare(sql).bind(args);
  return { names: statement.columns().map((column) => column.name), rows: statement.raw().all() };
}

it('prepares a statement once however often it runs, and answers each run with its own arguments', () => {
  const insert = 'INSERT INTO t (name) VALUES (?)';
  for (const name of ['a', 'b', 'c']) expect(connection.prepare(insert).bind([name]).run().changes).toBe(1);
  const byName = 'SELECT id, name FROM t WHERE name = ?';
  expect(read(byName, ['b'])).toEqual({ names: ['id', 'name'], rows: [[2n, 'b']] });
  expect(read(byName, ['c'])).toEqual({ names: ['id', 'name'], rows: [[3n, 'c']] });
  expect(prepared).toEqual([insert, byName]);
});

it('writes a trailing LIMIT as its value and keeps OFFSET bound', () => {
  for (const name of ['a', 'b', 'c', 'd']) connection.prepare('INSERT INTO t (name) VALUES (?)').bind([name]).run();
  const page = 'SELECT name FROM t WHERE id > ? ORDER BY id LIMIT ? OFFSET ?';
  expect(read(page, [0n, 2n, 1n]).rows).toEqual([['b'], ['c']]);
  expect(read(page, [0n, 2n, 2n]).rows).toEqual([['c'], ['d']]);
  expect(read(page, [0n, 1n, 0n]).rows).toEqual([['a']]);
  const pages = prepared.filter((sql) => sql.startsWith('SELECT'));
  expect(pages).toEqual([
    'SELECT name FROM t WHERE id > ? ORDER BY id LIMIT 2 OFFSET ?',
    'SELECT name FROM t WHERE id > ? ORDER BY id LIMIT 1 OFFSET ?',
  ]);
});

it('rewrites only a LIMIT bound to an integer, at a place it can count', () => {
  expect(literalLimit('SELECT 1 LIMIT ?', [5])).toEqual(['SELECT 1 LIMIT 5', []]);
  expect(literalLimit('SELECT ? LIMIT ? OFFSET ?', ['x', 10n, 20n])).toEqual([
    'SELECT ? LIMIT 10 OFFSET ?',
    ['x', 20n],
  ]);
  expect(literalLimit('SELECT 1 LIMIT ?', ['5; DROP TABLE t'])).toEqual(['SELECT 1 LIMIT ?', ['5; DROP TABLE t']]);
  expect(literalLimit('SELECT 1 LIMIT ?', [1.5])).toEqual(['SELECT 1 LIMIT ?', [1.5]]);
  // A `?` inside a quoted literal: the placeholders cannot be counted from the text, so it is left alone.
  expect(literalLimit("SELECT '?' LIMIT ?", [5])).toEqual(["SELECT '?' LIMIT ?", [5]]);
  expect(literalLimit('SELECT 1 LIMIT 3', [])).toEqual(['SELECT 1 LIMIT 3', []]);
});

it('runs a statement without arguments, as the adapter begins a transaction', () => {
  connection.prepare('BEGIN').run();
  connection.prepare('INSERT INTO t (name) VALUES (?)').bind(['kept']).run();
  connection.prepare('COMMIT').run();
  expect(read('SELECT name FROM t', []).rows).toEqual([['kept']]);
});

it('throws SQLite’s own errors, and a failed statement is not kept', () => {
  expect(() => connection.prepare('SELECT nope FROM t').bind([])).toThrow(/no such column/);
  db.exec('ALTER TABLE t ADD COLUMN nope TEXT');
  expect(read('SELECT nope FROM t', []).names).toEqual(['nope']);
  connection.prepare('CREATE UNIQUE INDEX t_name ON t (name)').bind([]).run();
  connection.prepare('INSERT INTO t (name) VALUES (?)').bind(['same']).run();
  expect(() => connection.prepare('INSERT INTO t (name) VALUES (?)').bind(['same']).run()).toThrow(
    expect.objectContaining({ code: 'SQLITE_CONSTRAINT_UNIQUE' }),
  );
});
