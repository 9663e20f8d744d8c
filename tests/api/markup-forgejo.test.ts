// Rendering as Forgejo renders: input/output pairs of Forgejo's own rendering tests (routers/api/v1/misc
// markup_test.go, modules/markup/markdown markdown_test.go), through POST /markdown and /markup exactly as Forgejo's
// test sends them (context `user2/repo1`, wiki on), plus Forgejo's heading-id rules (prefixedIDs, CleanValue).
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let caller: TestUser;

const APP_URL = 'http://localhost:3000/';
const CONTEXT = 'user2/repo1';
const REPO = `${APP_URL}${CONTEXT}`;
const MD_FILE = 'path/test.md';

beforeAll(async () => {
  t = await startTestApp();
  caller = await createTestUser(t);
  // Forgejo's test makes only this name mentionable.
  await createTestUser(t, { name: 'r-lyeh' });
});
afterAll(() => t.close());

async function post(route: 'markdown' | 'markup', body: Record<string, unknown>): Promise<string> {
  const res = await t.request().post(`/api/v1/${route}`).set('Authorization', caller.auth).send(body).expect(200);
  return res.text;
}

/** Rendered the same in every mode Forgejo's test tries: gfm and comment (both routes), and as a `.md` file. */
const WIKI_COMMON: [string, string, string][] = [
  [
    'wiki links in a list, a mention, a bare URL',
    'Wiki! Enjoy :)\n- [[Links, Language bindings, Engine bindings|Links]]\n- [[Tips]]\n' +
      '- Bezier widget (by @r-lyeh) https://github.com/ocornut/imgui/issues/786',
    '<p>Wiki! Enjoy :)</p>\n<ul>\n' +
      `<li><a href="${REPO}/wiki/Links" rel="nofollow">Links, Language bindings, Engine bindings</a></li>\n` +
      `<li><a href="${REPO}/wiki/Tips" rel="nofollow">Tips</a></li>\n` +
      `<li>Bezier widget (by <a href="${APP_URL}r-lyeh" class="mention" rel="nofollow">@r-lyeh</a>) ` +
      '<a href="https://github.com/ocornut/imgui/issues/786" rel="nofollow">' +
      'https://github.com/ocornut/imgui/issues/786</a></li>\n</ul>\n',
  ],
  [
    'text and page of a wiki link',
    '[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]',
    `<p><a href="${REPO}/wiki/Guardfile-DSL---Configuring-Guard" rel="nofollow">` +
      'Guardfile-DSL / Configuring-Guard</a></p>\n',
  ],
  ['[[Name|Link]]', '[[Name|Link]]', `<p><a href="${REPO}/wiki/Link" rel="nofollow">Name</a></p>\n`],
  ['empty text', '', ''],
];

/** Documents (gfm, `.md` files): soft line breaks stay. */
const WIKI_DOCUMENT: [string, string, string][] = [
  [
    'headings, a link, a wiki page and a wiki image',
    '## What is Wine Staging?\n**Wine Staging** on website [wine-staging.com](http://wine-staging.com).\n\n' +
      '## Quick Links\n' +
      'Here are some links to the most important topics. You can find the full list of pages at the sidebar.\n\n' +
      '[[Configuration]]\n[[images/icon-bug.png]]\n',
    '<h2 id="user-content-what-is-wine-staging">What is Wine Staging?</h2>\n' +
      '<p><strong>Wine Staging</strong> on website ' +
      '<a href="http://wine-staging.com" rel="nofollow">wine-staging.com</a>.</p>\n' +
      '<h2 id="user-content-quick-links">Quick Links</h2>\n' +
      '<p>Here are some links to the most important topics. You can find the full list of pages at the sidebar.</p>\n' +
      `<p><a href="${REPO}/wiki/Configuration" rel="nofollow">Configuration</a>\n` +
      `<a href="${REPO}/wiki/raw/images/icon-bug.png" rel="nofollow"><img src="${REPO}/wiki/raw/images/icon-bug.png" ` +
      'title="icon-bug.png" alt="images/icon-bug.png"/></a></p>\n',
  ],
  [
    'repeated headings and a heading naming its own id',
    '# Title\n# Title\n# Title\n## More tests {#custom-id}\n### Ünïcödé_and-dashes 42!',
    '<h1 id="user-content-title">Title</h1>\n<h1 id="user-content-title-1">Title</h1>\n' +
      '<h1 id="user-content-title-2">Title</h1>\n<h2 id="user-content-custom-id">More tests</h2>\n' +
      '<h3 id="user-content-ünïcödé_and-dashes-42">Ünïcödé_and-dashes 42!</h3>\n',
  ],
];

/** Plain markdown mode knows no wiki links (Forgejo's TestAPI_RenderSimple). */
const SIMPLE: [string, string][] = [
  [
    '[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]',
    '<p>[[Guardfile-DSL / Configuring-Guard|Guardfile-DSL---Configuring-Guard]]</p>\n',
  ],
  ['[[Name|Link]]', '<p>[[Name|Link]]</p>\n'],
  ['', ''],
];

describe.each(WIKI_COMMON)('%s', (_name, text, html) => {
  it.each(['gfm', 'comment'])('renders it in %s mode on both routes', async (mode) => {
    expect(await post('markdown', { mode, text, context: CONTEXT, wiki: true })).toBe(html);
    expect(await post('markup', { mode, text, context: CONTEXT, wiki: true })).toBe(html);
  });

  it('renders it as a .md file', async () => {
    expect(await post('markup', { mode: 'file', file_path: MD_FILE, text, context: CONTEXT, wiki: true })).toBe(html);
  });
});

describe.each(WIKI_DOCUMENT)('%s', (_name, text, html) => {
  it('renders it in gfm mode on both routes and as a .md file', async () => {
    expect(await post('markdown', { mode: 'gfm', text, context: CONTEXT, wiki: true })).toBe(html);
    expect(await post('markup', { mode: 'gfm', text, context: CONTEXT, wiki: true })).toBe(html);
    expect(await post('markup', { mode: 'file', file_path: MD_FILE, text, context: CONTEXT, wiki: true })).toBe(html);
  });
});

describe('outside a wiki', () => {
  it('links wiki-style pages and images under the context itself', async () => {
    const html = await post('markdown', { mode: 'gfm', text: '[[Name|Link]] [[images/icon.png]]', context: CONTEXT });
    expect(html).toBe(
      `<p><a href="${REPO}/Link" rel="nofollow">Name</a> ` +
        `<a href="${REPO}/images/icon.png" rel="nofollow">` +
        `<img src="${REPO}/images/icon.png" title="icon.png" alt="images/icon.png"/></a></p>\n`,
    );
  });
});

describe.each(SIMPLE)('markdown mode: %j', (text, html) => {
  it('leaves wiki syntax as text on /markdown and /markdown/raw', async () => {
    expect(await post('markdown', { mode: 'markdown', text, context: CONTEXT })).toBe(html);
    const raw = await t
      .request()
      .post('/api/v1/markdown/raw')
      .set('Authorization', caller.auth)
      .set('Content-Type', 'text/plain')
      .send(text)
      .expect(200);
    expect(raw.text).toBe(html);
  });
});
