// GET /api/v1/nodeinfo and /.well-known/nodeinfo: NodeInfo 2.1 as Forgejo serves it, checked against the
// NodeInfo 2.1 schema (written here from the specification), cached usage, SHARE_USER_STATISTICS, ENABLED=false.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createTestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const uint = { type: 'integer', minimum: 0 };

/** NodeInfo 2.1 (http://nodeinfo.diaspora.software/ns/schema/2.1). */
const NODEINFO_2_1_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'software', 'protocols', 'services', 'openRegistrations', 'usage', 'metadata'],
  properties: {
    version: { enum: ['2.1'] },
    software: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      properties: {
        name: { type: 'string', pattern: '^[a-z0-9-]+$' },
        version: { type: 'string' },
        repository: { type: 'string', format: 'uri' },
        homepage: { type: 'string', format: 'uri' },
      },
    },
    protocols: {
      type: 'array',
      minItems: 1,
      items: {
        enum: [
          'activitypub',
          'buddycloud',
          'dfrn',
          'diaspora',
          'libertree',
          'ostatus',
          'pumpio',
          'tent',
          'xmpp',
          'zot',
        ],
      },
    },
    services: {
      type: 'object',
      additionalProperties: false,
      required: ['inbound', 'outbound'],
      properties: {
        inbound: {
          type: 'array',
          items: { enum: ['atom1.0', 'gnusocial', 'imap', 'pnut', 'pop3', 'pumpio', 'rss2.0', 'twitter'] },
        },
        outbound: {
          type: 'array',
          items: {
            enum: [
              'atom1.0',
              'blogger',
              'buddycloud',
              'diaspora',
              'dreamwidth',
              'drupal',
              'facebook',
              'friendica',
              'gnusocial',
              'google',
              'insanejournal',
              'libertree',
              'linkedin',
              'livejournal',
              'mediagoblin',
              'myspace',
              'pinterest',
              'pnut',
              'posterous',
              'pumpio',
              'redmatrix',
              'rss2.0',
              'smtp',
              'tent',
              'tumblr',
              'twitter',
              'wordpress',
              'xmpp',
            ],
          },
        },
      },
    },
    openRegistrations: { type: 'boolean' },
    usage: {
      type: 'object',
      additionalProperties: false,
      required: ['users'],
      properties: {
        users: {
          type: 'object',
          additionalProperties: false,
          properties: { total: uint, activeHalfyear: uint, activeMonth: uint },
        },
        localPosts: uint,
        localComments: uint,
      },
    },
    metadata: { type: 'object' },
  },
};

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
const validNodeInfo = ajv.compile(NODEINFO_2_1_SCHEMA);

function expectNodeInfo(body: unknown): void {
  const valid = validNodeInfo(body);
  expect(validNodeInfo.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
}

describe('with federation on (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('serves a NodeInfo 2.1 document that the schema accepts', async () => {
    const active = await createTestUser(t);
    await t.context.db.prisma.user.update({ where: { id: active.user.id }, data: { lastLoginAt: new Date() } });
    const halfYear = await createTestUser(t);
    await t.context.db.prisma.user.update({
      where: { id: halfYear.user.id },
      data: { lastLoginAt: new Date(Date.now() - 90 * 86_400_000) },
    });
    const poster = await createTestUser(t);
    const repo = (
      await t
        .request()
        .post('/api/v1/user/repos')
        .set('Authorization', poster.auth)
        .send({ name: 'tracker' })
        .expect(201)
    ).body;
    const { prisma } = t.context.db;
    const issue = await prisma.issue.create({
      data: { repoId: repo.id, index: 1, posterId: poster.user.id, title: 'first' },
    });
    await prisma.comment.createMany({
      data: [1, 2].map(() => ({ issueId: issue.id, posterId: poster.user.id, content: 'me too' })),
    });

    const res = await t.request().get('/api/v1/nodeinfo').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectNodeInfo(res.body);
    expect(res.body).toEqual({
      version: '2.1',
      software: {
        name: 'forgejo',
        version: expect.any(String),
        repository: expect.stringMatching(/^https:\/\//),
        homepage: expect.stringMatching(/^https:\/\//),
      },
      protocols: ['activitypub'],
      services: { inbound: [], outbound: ['rss2.0'] },
      openRegistrations: true,
      usage: { users: { total: 3, activeMonth: 1, activeHalfyear: 2 }, localPosts: 1, localComments: 2 },
      metadata: {},
    });
  });

  it('keeps usage counts for a while instead of counting on every request', async () => {
    const before = (await t.request().get('/api/v1/nodeinfo').expect(200)).body.usage.users.total;
    await createTestUser(t);
    expect((await t.request().get('/api/v1/nodeinfo').expect(200)).body.usage.users.total).toBe(before);
  });

  it('answers signed-in callers the same way', async () => {
    const user = await createTestUser(t);
    expectNodeInfo((await t.request().get('/api/v1/nodeinfo').set('Authorization', user.auth).expect(200)).body);
  });

  it('is discoverable at /.well-known/nodeinfo', async () => {
    const res = await t.request().get('/.well-known/nodeinfo').expect(200);
    expect(res.body).toEqual({
      links: [
        { rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: 'http://localhost:3000/api/v1/nodeinfo' },
      ],
    });
  });
});

describe('with SHARE_USER_STATISTICS=false and registration disabled', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      ANVIL__federation__SHARE_USER_STATISTICS: 'false',
      ANVIL__service__DISABLE_REGISTRATION: 'true',
    });
    await createTestUser(t);
  });
  afterAll(() => t.close());

  it('hides the usage counts and reports closed registrations', async () => {
    const res = await t.request().get('/api/v1/nodeinfo').expect(200);
    expectNodeInfo(res.body);
    expect(res.body.usage).toEqual({ users: {} });
    expect(res.body.openRegistrations).toBe(false);
  });
});

describe('with federation off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ANVIL__federation__ENABLED: 'false' });
  });
  afterAll(() => t.close());

  it('answers 404 for nodeinfo and its discovery document', async () => {
    await t.request().get('/api/v1/nodeinfo').expect(404);
    await t.request().get('/.well-known/nodeinfo').expect(404);
  });
});
