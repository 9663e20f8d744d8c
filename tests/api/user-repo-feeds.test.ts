// Activity feeds of a user and of a repository: what each caller sees of private rows, `only-performed-by`,
// users who keep their activity private, and 404 for a repository the caller may not see.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let ann: TestUser;
let ben: TestUser;

type Entry = { op_type: string; act_user: { login: string }; repo: { name: string } };
const summary = (body: Entry[]) => body.map((e) => `${e.act_user.login}:${e.op_type}:${e.repo.name}`).sort();

async function feed(url: string, user?: TestUser): Promise<string[]> {
  const req = t.request().get(`/api/v1${url}`);
  return summary((await (user ? req.set('Authorization', user.auth) : req).expect(200)).body);
}

beforeAll(async () => {
  t = await startTestApp();
  ann = await createTestUser(t);
  ben = await createTestUser(t);
  for (const [name, isPrivate] of [
    ['open', false],
    ['closed', true],
  ] as const)
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', ann.auth)
      .send({ name, private: isPrivate })
      .expect(201);
  await t
    .request()
    .post(`/api/v1/repos/${ann.user.name}/open/issues`)
    .set('Authorization', ben.auth)
    .send({ title: 'Hello' })
    .expect(201);
});
afterAll(() => t.close());

describe("a user's feed", () => {
  const url = () => `/users/${ann.user.name}/activities/feeds`;

  it('shows private rows to the user only', async () => {
    const ownOnly = [`${ann.user.name}:create_repo:closed`, `${ann.user.name}:create_repo:open`];
    expect(await feed(url(), ann)).toEqual([...ownOnly, `${ben.user.name}:create_issue:open`].sort());
    expect(await feed(url())).toEqual(
      [`${ann.user.name}:create_repo:open`, `${ben.user.name}:create_issue:open`].sort(),
    );
    expect(await feed(`${url()}?only-performed-by=true`, ann)).toEqual(ownOnly);
  });

  it('shows others nothing of a user who keeps activity private', async () => {
    await t.context.db.prisma.user.update({ where: { id: ann.user.id }, data: { hideActivity: true } });
    expect(await feed(url(), ben)).toEqual([]);
    expect((await feed(url(), ann)).length).toBe(3);
    await t.context.db.prisma.user.update({ where: { id: ann.user.id }, data: { hideActivity: false } });
  });

  it('is 404 for an unknown user and 422 for a malformed date', async () => {
    await t.request().get('/api/v1/users/nobody-here/activities/feeds').expect(404);
    await t.request().get(`/api/v1${url()}?date=yesterday`).expect(422);
  });
});

describe("a repository's feed", () => {
  it('holds the rows of that repository once each', async () => {
    expect(await feed(`/repos/${ann.user.name}/open/activities/feeds`)).toEqual(
      [`${ann.user.name}:create_repo:open`, `${ben.user.name}:create_issue:open`].sort(),
    );
    expect(await feed(`/repos/${ann.user.name}/closed/activities/feeds`, ann)).toEqual([
      `${ann.user.name}:create_repo:closed`,
    ]);
  });

  it('is 404 for a private repository the caller may not see', async () => {
    await t
      .request()
      .get(`/api/v1/repos/${ann.user.name}/closed/activities/feeds`)
      .set('Authorization', ben.auth)
      .expect(404);
  });
});

describe("a user's heatmap", () => {
  const url = () => `/api/v1/users/${ann.user.name}/heatmap`;
  const total = (body: { contributions: number; timestamp: number }[]) =>
    body.reduce((sum, entry) => sum + entry.contributions, 0);

  it('counts the user’s own actions per quarter hour, private ones for the user only', async () => {
    const own = await t.request().get(url()).set('Authorization', ann.auth).expect(200);
    expect(total(own.body)).toBe(2);
    expect(own.body[0].timestamp % 900).toBe(0);
    expect(total((await t.request().get(url()).expect(200)).body)).toBe(1);
  });

  it('is empty to others for a user who keeps activity private, and 404 for an unknown user', async () => {
    await t.context.db.prisma.user.update({ where: { id: ann.user.id }, data: { hideActivity: true } });
    expect((await t.request().get(url()).set('Authorization', ben.auth).expect(200)).body).toEqual([]);
    await t.context.db.prisma.user.update({ where: { id: ann.user.id }, data: { hideActivity: false } });
    await t.request().get('/api/v1/users/nobody-here/heatmap').expect(404);
  });
});
