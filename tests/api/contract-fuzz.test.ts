// Every operation of the contract, called by an administrator with odd path values, odd query values and
// malformed bodies: the answer is always a 4xx or a success, never a 500 (501 only for operations not built yet).
import { OPERATIONS, type OperationId } from '../../generated/operations.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
let orgName: string;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
  orgName = (await createTestOrg(t, admin.user)).name;
});
afterAll(() => t.close());

const ODD_SEGMENTS = [
  '..',
  '.',
  '-',
  '%2e%2e',
  'a%2Fb',
  '%E2%9C%93',
  'x'.repeat(300),
  '0',
  '-1',
  '99999999999999999999',
  '1.5',
  ' ',
  '%20',
];
const ODD_QUERY_VALUES = [
  '',
  '-1',
  '0',
  'abc',
  '1e400',
  '99999999999999999999',
  '%00x'.slice(3),
  '..',
  'true',
  '[]',
  '%2F',
];
const ODD_BODIES: unknown[] = [
  {},
  [],
  'text',
  42,
  null,
  { name: '' },
  { name: 'x'.repeat(5000) },
  { name: 5, id: 'x', units: 'a', permission: 7 },
];

const operations = (Object.entries(OPERATIONS) as [OperationId, (typeof OPERATIONS)[OperationId]][]).filter(
  ([, op]) => !op.rawBody,
);

function fill(path: string, value: (name: string) => string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => value(name));
}

function sensible(name: string): string {
  if (name === 'org' || name === 'owner') return orgName;
  if (name === 'username') return admin.user.name;
  return '1';
}

async function call(method: string, url: string, body?: unknown) {
  const request = (t.request() as unknown as Record<string, (u: string) => import('supertest').Test>)
    [method](url)
    .set('Authorization', admin.auth);
  return body === undefined ? request : request.set('Content-Type', 'application/json').send(JSON.stringify(body));
}

const seen = new Map<number, number>();
afterAll(() => {
  // The calls must reach handlers, not only the validator: some succeed and some are refused by rules.
  expect(seen.get(200)).toBeGreaterThan(0);
  expect(seen.get(422)).toBeGreaterThan(0);
});
function expectNoServerError(status: number, label: string): void {
  seen.set(status, (seen.get(status) ?? 0) + 1);
  if (status >= 500 && status !== 501) throw new Error(`${label} answered ${status}`);
}

describe.each(operations)('%s', (operationId, op) => {
  it('survives odd path segments', async () => {
    if (!op.path.includes('{')) return;
    for (const segment of ODD_SEGMENTS) {
      const url = fill(op.path, () => segment);
      const res = await call(op.method, url);
      expectNoServerError(res.status, `${op.method.toUpperCase()} ${url}`);
    }
  });

  it('survives odd query values', async () => {
    for (const value of ODD_QUERY_VALUES) {
      const params = [
        'page',
        'limit',
        'q',
        'sort',
        'order',
        'uid',
        'team_id',
        'date',
        'type',
        'since',
        'before',
        'purge',
        'query',
        'pattern',
        'mode',
      ]
        .map((key) => `${key}=${encodeURIComponent(value)}`)
        .join('&');
      const url = `${fill(op.path, sensible)}?${params}`;
      const res = await call(op.method, url);
      expectNoServerError(res.status, `${op.method.toUpperCase()} ${url}`);
    }
  });

  it('survives malformed bodies', async () => {
    if (op.method === 'get' || op.method === 'delete') return;
    for (const body of ODD_BODIES) {
      const url = fill(op.path, sensible);
      const res = await call(op.method, url, body);
      expectNoServerError(res.status, `${op.method.toUpperCase()} ${url} ${JSON.stringify(body).slice(0, 60)}`);
    }
  });
});
