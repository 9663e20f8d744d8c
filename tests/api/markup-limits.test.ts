// Markup rendering cannot stall the server: hostile documents render (or are refused with a 422) on the render
// threads while the event loop stays free, in time linear in their size; no input answers 500; bodies over the
// limit are refused with 413; a render over its time budget is refused. The event loop is measured with a probe
// (monitorEventLoopDelay) in this process, where the app under test runs.
import { allowedStallMs, withEventLoopProbe } from '../helpers/event-loop-probe.ts';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let context: string;

const SWAGGER_URL = 'http://localhost:3000/api/swagger';

beforeAll(async () => {
  // A generous budget: what these tests measure is the event loop, not how fast a busy machine renders.
  t = await startTestApp({ ANVIL__markup__RENDER_TIMEOUT: '30s' });
  alice = await createTestUser(t, { name: 'alice' });
  await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: 'docs' }).expect(201);
  context = 'alice/docs';
  // The threads start on the first render; the bombs measure rendering, not a thread's start.
  await renderMarkdown(t, alice, { Mode: 'gfm', Text: '# warm' }).expect(200);
});
afterAll(() => t.close());

function renderMarkdown(app: TestApp, user: TestUser, body: Record<string, unknown>) {
  return app.request().post('/api/v1/markdown').set('Authorization', user.auth).send(body);
}

const BOMBS: [string, string][] = [
  ['150,000 [', '['.repeat(150_000)],
  ['50,000 unclosed wiki links on one line', '[[a|'.repeat(50_000)],
  ['100,000 unclosed wiki links, one per line', '[[a\n'.repeat(100_000)],
  ['420 KB of @mentions of an existing account', '@alice '.repeat(60_000)],
  ['300 KB of issue references in a repository', '#1 '.repeat(100_000)],
  ['100,000 >', '>'.repeat(100_000)],
  ['100,000 *', '*'.repeat(100_000)],
  ['50,000 nested list markers', '- '.repeat(50_000)],
  ['50,000 nested divs', '<div>'.repeat(50_000)],
  ['100,000 equal headings', '# a\n'.repeat(100_000)],
  ['a heading of 300,000 spaces before an id', `# ${' '.repeat(300_000)}x {#a}`],
];

describe.each(BOMBS)('%s', (_name, text) => {
  it.each(['gfm', 'comment', 'markdown'])('renders or refuses it in %s mode, the event loop free', async (mode) => {
    const body = { Mode: mode, Text: text, Context: context };
    const { result, maxStallMs, workMs } = await withEventLoopProbe(() => renderMarkdown(t, alice, body));
    expect([200, 422]).toContain(result.status);
    if (result.status === 422) {
      expect(result.body).toEqual({ message: expect.stringContaining('render'), url: SWAGGER_URL });
    }
    expect(maxStallMs).toBeLessThan(allowedStallMs(workMs));
  });
});

it('renders a wiki-link bomb, linearly, well within the budget', async () => {
  const res = await t
    .request()
    .post('/api/v1/markdown')
    .set('Authorization', alice.auth)
    .send({ Mode: 'gfm', Text: `${'[[a|'.repeat(50_000)}\n\n[[Page]]`, Context: context, Wiki: true })
    .expect(200);
  expect(res.text).toContain('<a href="http://localhost:3000/alice/docs/wiki/Page" rel="nofollow">Page</a>');
});

it('links each of 40,000 mentions (the stack overflowed at this size)', async () => {
  const res = await t
    .request()
    .post('/api/v1/markup')
    .set('Authorization', alice.auth)
    .send({ Mode: 'comment', Text: '@alice '.repeat(40_000) })
    .expect(200);
  expect(res.text.match(/class="mention"/g)).toHaveLength(40_000);
});

describe('with a budget of 2 s', () => {
  let strict: TestApp;
  let caller: TestUser;

  beforeAll(async () => {
    strict = await startTestApp({ ANVIL__markup__RENDER_TIMEOUT: '2s' });
    caller = await createTestUser(strict);
  });
  afterAll(() => strict.close());

  it('renders 150,000 [ (or refuses it): either way within 2 s, and never on the event loop', async () => {
    const body = { Mode: 'gfm', Text: '['.repeat(150_000) };
    const { result, maxStallMs, workMs } = await withEventLoopProbe(() => renderMarkdown(strict, caller, body));
    expect([200, 422]).toContain(result.status);
    expect(maxStallMs).toBeLessThan(allowedStallMs(workMs));
  });
});

it("answers a body over the limit with 413 in Forgejo's error format", async () => {
  const res = await t
    .request()
    .post('/api/v1/markdown')
    .set('Authorization', alice.auth)
    .send({ Mode: 'gfm', Text: 'a'.repeat(1024 * 1024 + 1) })
    .expect(413);
  expect(res.body).toEqual({ message: expect.stringContaining('too large'), url: SWAGGER_URL });
  const raw = await t
    .request()
    .post('/api/v1/markdown/raw')
    .set('Authorization', alice.auth)
    .set('Content-Type', 'text/plain')
    .send('a'.repeat(1024 * 1024 + 1))
    .expect(413);
  expect(raw.body).toEqual({ message: expect.stringContaining('too large'), url: SWAGGER_URL });
});

describe('a render over its time budget', () => {
  let slow: TestApp;
  let caller: TestUser;

  beforeAll(async () => {
    // No thread starts within a millisecond: every render is over budget.
    slow = await startTestApp({ ANVIL__markup__RENDER_TIMEOUT: '1ms' });
    caller = await createTestUser(slow);
  });
  afterAll(() => slow.close());

  it.each(['markdown', 'markup'])("is refused on /%s with a 422 in Forgejo's error format", async (route) => {
    const res = await slow
      .request()
      .post(`/api/v1/${route}`)
      .set('Authorization', caller.auth)
      .send({ Mode: 'gfm', Text: '# x' })
      .expect(422);
    expect(res.body).toEqual({ message: 'the text could not be rendered within 1 ms', url: SWAGGER_URL });
  });
});
