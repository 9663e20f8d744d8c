// POST /markdown, /markdown/raw, /markup: modes, context links, mentions and issue references, file renderers,
// errors, and an XSS corpus through the real HTTP stack.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { XSS_VECTORS, executableLeftIn } from '../helpers/xss-corpus.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let repoName: string;
let privateRepoName: string;

const ROOT = 'http://localhost:3000/';

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  repoName = `docs${alice.user.id}`;
  privateRepoName = `secret${alice.user.id}`;
  await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: repoName }).expect(201);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: privateRepoName, private: true })
    .expect(201);
});
afterAll(() => t.close());

async function markdown(body: Record<string, unknown>, user: TestUser = alice): Promise<string> {
  const res = await t.request().post('/api/v1/markdown').set('Authorization', user.auth).send(body).expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  return res.text;
}

async function markup(body: Record<string, unknown>, user: TestUser = alice): Promise<string> {
  const res = await t.request().post('/api/v1/markup').set('Authorization', user.auth).send(body).expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  return res.text;
}

describe('access', () => {
  it('answers 401 to anonymous callers on every render route', async () => {
    await t.request().post('/api/v1/markdown').send({ Text: '# x' }).expect(401);
    await t.request().post('/api/v1/markdown/raw').set('Content-Type', 'text/plain').send('# x').expect(401);
    await t.request().post('/api/v1/markup').send({ Text: '# x', Mode: 'gfm' }).expect(401);
  });
});

describe('POST /markdown', () => {
  it('renders markdown as HTML, accepting Forgejo field names in any case', async () => {
    expect(await markdown({ Text: '# Title\n\n*em* and **strong**' })).toBe(
      '<h1 id="user-content-title">Title</h1>\n<p><em>em</em> and <strong>strong</strong></p>\n',
    );
    expect(await markdown({ text: '`code`' })).toBe('<p><code>code</code></p>\n');
  });

  it('answers an empty text with an empty body', async () => {
    expect(await markdown({ Text: '' })).toBe('');
    expect(await markdown({})).toBe('');
  });

  it('turns soft line breaks into <br> in comment and markdown modes, keeps them in gfm documents', async () => {
    expect(await markdown({ Text: 'a\nb', Mode: 'comment' })).toBe('<p>a<br/>\nb</p>\n');
    expect(await markdown({ Text: 'a\nb', Mode: 'markdown' })).toBe('<p>a<br/>\nb</p>\n');
    expect(await markdown({ Text: 'a\nb', Mode: 'gfm' })).toBe('<p>a\nb</p>\n');
    // Any other mode is plain markdown.
    expect(await markdown({ Text: 'a\nb', Mode: 'nonsense' })).toBe('<p>a<br/>\nb</p>\n');
  });

  it('resolves relative links and images against the context', async () => {
    const html = await markdown({
      Text: '[doc](docs/a.md) ![logo](img/logo.png) [top](#top) [abs](/x) [ext](https://example.com/)',
      Mode: 'gfm',
      Context: `${alice.user.name}/${repoName}`,
    });
    expect(html).toContain(`<a href="${ROOT}${alice.user.name}/${repoName}/docs/a.md" rel="nofollow">doc</a>`);
    expect(html).toContain(`<img src="${ROOT}${alice.user.name}/${repoName}/img/logo.png" alt="logo"/>`);
    expect(html).toContain('<a href="#top" rel="nofollow">top</a>');
    expect(html).toContain('<a href="/x" rel="nofollow">abs</a>');
    expect(html).toContain('<a href="https://example.com/" rel="nofollow">ext</a>');
  });

  it('keeps an absolute context as it is', async () => {
    expect(await markdown({ Text: '[a](b)', Mode: 'gfm', Context: 'https://example.org/base/' })).toBe(
      '<p><a href="https://example.org/base/b" rel="nofollow">a</a></p>\n',
    );
  });

  it('resolves wiki links and images under the wiki with wiki=true', async () => {
    const context = `${alice.user.name}/${repoName}`;
    const html = await markdown({
      Text: '[[Home]] [[Other text|Some Page]] [rel](Page2) ![i](pic.png)',
      Mode: 'gfm',
      Context: context,
      Wiki: true,
    });
    expect(html).toContain(`<a href="${ROOT}${context}/wiki/Home" rel="nofollow">Home</a>`);
    expect(html).toContain(`<a href="${ROOT}${context}/wiki/Some-Page" rel="nofollow">Other text</a>`);
    expect(html).toContain(`<a href="${ROOT}${context}/wiki/Page2" rel="nofollow">rel</a>`);
    expect(html).toContain(`<img src="${ROOT}${context}/wiki/raw/pic.png" alt="i"/>`);
  });

  it('links mentions of existing accounts in gfm and comment modes only', async () => {
    const text = `hello @${bob.user.name} and @nobody${bob.user.id}, mail a@b.c`;
    for (const mode of ['gfm', 'comment']) {
      const html = await markdown({ Text: text, Mode: mode });
      expect(html).toContain(`<a href="${ROOT}${bob.user.name}" class="mention" rel="nofollow">@${bob.user.name}</a>`);
      expect(html).toContain(`@nobody${bob.user.id},`);
      expect(html).not.toContain(`class="mention">@nobody`);
    }
    expect(await markdown({ Text: text, Mode: 'markdown' })).not.toContain('class="mention"');
  });

  it('does not link mentions inside code or links', async () => {
    const html = await markdown({
      Text: `\`@${bob.user.name}\` [@${bob.user.name}](https://example.com)`,
      Mode: 'gfm',
    });
    expect(html).not.toContain('class="mention"');
  });

  it('links #123 to issues of the context repository when it exists and the reader may see it', async () => {
    const context = `${alice.user.name}/${repoName}`;
    const html = await markdown({ Text: 'fixes #12, see (#3)', Mode: 'comment', Context: context });
    expect(html).toContain(`<a href="${ROOT}${context}/issues/12" class="ref-issue" rel="nofollow">#12</a>`);
    expect(html).toContain(`(<a href="${ROOT}${context}/issues/3" class="ref-issue" rel="nofollow">#3</a>)`);
    expect(await markdown({ Text: 'fixes #12', Mode: 'gfm', Context: `${alice.user.name}/missing` })).toBe(
      '<p>fixes #12</p>\n',
    );
    expect(await markdown({ Text: 'fixes #12', Mode: 'gfm' })).toBe('<p>fixes #12</p>\n');
    const privateContext = `${alice.user.name}/${privateRepoName}`;
    expect(await markdown({ Text: 'fixes #7', Mode: 'gfm', Context: privateContext }, alice)).toContain(
      'class="ref-issue"',
    );
    expect(await markdown({ Text: 'fixes #7', Mode: 'gfm', Context: privateContext }, bob)).toBe('<p>fixes #7</p>\n');
  });
});

describe('POST /markdown/raw', () => {
  it('renders the text/plain body in markdown mode', async () => {
    const res = await t
      .request()
      .post('/api/v1/markdown/raw')
      .set('Authorization', alice.auth)
      .set('Content-Type', 'text/plain')
      .send(`# Raw\n\n@${bob.user.name}\n<script>alert(1)</script>`)
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toBe(`<h1 id="user-content-raw">Raw</h1>\n<p>@${bob.user.name}</p>\n`);
  });
});

describe('POST /markup', () => {
  it('renders the markdown modes like /markdown', async () => {
    expect(await markup({ Mode: 'gfm', Text: '~~gone~~' })).toBe('<p><s>gone</s></p>\n');
    expect(await markup({ Mode: 'comment', Text: 'a\nb' })).toBe('<p>a<br/>\nb</p>\n');
  });

  it('answers an unknown mode with 422 and a plain-text body', async () => {
    const res = await t
      .request()
      .post('/api/v1/markup')
      .set('Authorization', alice.auth)
      .send({ Mode: 'unknown', Text: '## Test' })
      .expect(422);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('Unknown mode: unknown\n');
    const empty = await t
      .request()
      .post('/api/v1/markup')
      .set('Authorization', alice.auth)
      .send({ Text: '## Test' })
      .expect(422);
    expect(empty.text).toBe('Unknown mode: \n');
  });

  it('answers an unknown file extension with 422 and a plain-text body', async () => {
    const res = await t
      .request()
      .post('/api/v1/markup')
      .set('Authorization', alice.auth)
      .send({ Mode: 'file', FilePath: 'path/test.unknown', Text: '## Test' })
      .expect(422);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe('Unsupported render extension: .unknown\n');
    const none = await t
      .request()
      .post('/api/v1/markup')
      .set('Authorization', alice.auth)
      .send({ mode: 'file', file_path: 'Makefile', text: 'x' })
      .expect(422);
    expect(none.text).toBe('Unsupported render extension: \n');
  });

  it.each(['.md', '.markdown', '.mdown', '.mkd', '.livemd', '.MD'])(
    'renders %s files as markdown documents',
    async (extension) => {
      expect(await markup({ Mode: 'file', FilePath: `docs/README${extension}`, Text: '# Hi\nsoft\nbreak' })).toBe(
        '<h1 id="user-content-hi">Hi</h1>\n<p>soft\nbreak</p>\n',
      );
    },
  );

  it('renders plain text files as preformatted text', async () => {
    expect(await markup({ Mode: 'file', FilePath: 'notes.txt', Text: '<b>not bold</b>\n  indented' })).toBe(
      '<pre class="plain-text">&lt;b&gt;not bold&lt;/b&gt;\n  indented</pre>',
    );
  });

  it('renders CSV and TSV files as tables with the first row as header', async () => {
    expect(await markup({ Mode: 'file', FilePath: 'data.csv', Text: 'name,note\nann,"a, ""quoted"" <b>"\nbo' })).toBe(
      '<table class="data-table"><tr><th class="line-num">1</th><th>name</th><th>note</th></tr>' +
        '<tr><td class="line-num">2</td><td>ann</td><td>a, "quoted" &lt;b&gt;</td></tr>' +
        '<tr><td class="line-num">3</td><td>bo</td></tr></table>',
    );
    expect(await markup({ Mode: 'file', FilePath: 'data.tsv', Text: 'a\tb\n1\t2' })).toBe(
      '<table class="data-table"><tr><th class="line-num">1</th><th>a</th><th>b</th></tr><tr><td class="line-num">2</td><td>1</td><td>2</td></tr></table>',
    );
    // Text the CSV parser cannot read is still shown.
    expect(await markup({ Mode: 'file', FilePath: 'broken.csv', Text: 'a,"unclosed' })).toBe(
      '<pre class="plain-text">a,"unclosed</pre>',
    );
  });

  it('renders terminal sessions with their colours as classes and other escapes dropped', async () => {
    const text = '$ ls\n\u001b[1;32mok\u001b[0m <done>\u001b]0;title\u0007\n';
    expect(await markup({ Mode: 'file', FilePath: 'demo.sh-session', Text: text })).toBe(
      '<pre class="console">$ ls\n<span class="term-fg32 term-bold">ok</span> &lt;done&gt;\n</pre>',
    );
    const cast =
      '{"version": 2, "width": 80, "height": 24}\n[0.1, "o", "hi \\u001b[31mred\\u001b[0m"]\n[0.2, "i", "typed"]\n';
    expect(await markup({ Mode: 'file', FilePath: 'demo.cast', Text: cast })).toBe(
      '<pre class="console">hi <span class="term-fg31">red</span></pre>',
    );
  });
});

describe('markdown corpus', () => {
  // CommonMark spec examples (0.31.2) whose output the sanitiser keeps as it is.
  const COMMONMARK: [string, string][] = [
    ['\tfoo\tbaz\t\tbim\n', '<pre><code>foo\tbaz\t\tbim\n</code></pre>\n'],
    ['- `one\n- two`\n', '<ul>\n<li>`one</li>\n<li>two`</li>\n</ul>\n'],
    ['***\n---\n___\n', '<hr/>\n<hr/>\n<hr/>\n'],
    [
      '# foo\n## foo\n### foo\n#### foo\n##### foo\n###### foo\n',
      '<h1 id="user-content-foo">foo</h1>\n<h2 id="user-content-foo-1">foo</h2>\n<h3 id="user-content-foo-2">foo</h3>\n' +
        '<h4 id="user-content-foo-3">foo</h4>\n<h5 id="user-content-foo-4">foo</h5>\n<h6 id="user-content-foo-5">foo</h6>\n',
    ],
    ['####### foo\n', '<p>####### foo</p>\n'],
    [
      'Foo *bar*\n=========\n\nFoo *bar*\n---------\n',
      '<h1 id="user-content-foo-bar">Foo <em>bar</em></h1>\n<h2 id="user-content-foo-bar-1">Foo <em>bar</em></h2>\n',
    ],
    ['    a simple\n      indented code block\n', '<pre><code>a simple\n  indented code block\n</code></pre>\n'],
    ['```\n<\n >\n```\n', '<pre><code>&lt;\n &gt;\n</code></pre>\n'],
    [
      '```ruby\ndef foo(x)\n  return 3\nend\n```\n',
      '<pre><code class="language-ruby">def foo(x)\n  return 3\nend\n</code></pre>\n',
    ],
    ['[foo]: /url "title"\n\n[foo]\n', '<p><a href="/url" title="title" rel="nofollow">foo</a></p>\n'],
    ['aaa\n\nbbb\n', '<p>aaa</p>\n<p>bbb</p>\n'],
    ['> # Foo\n> bar\n> baz\n', '<blockquote>\n<h1 id="user-content-foo">Foo</h1>\n<p>bar\nbaz</p>\n</blockquote>\n'],
    ['1.  A paragraph\n    with two lines.\n', '<ol>\n<li>A paragraph\nwith two lines.</li>\n</ol>\n'],
    ['123456789. ok\n', '<ol start="123456789">\n<li>ok</li>\n</ol>\n'],
    ['- foo\n- bar\n+ baz\n', '<ul>\n<li>foo</li>\n<li>bar</li>\n</ul>\n<ul>\n<li>baz</li>\n</ul>\n'],
    [
      '\\!\\"\\#\\$\\%\\&\\\'\\(\\)\\*\\+\\,\\-\\.\\/\\:\\;\\<\\=\\>\\?\\@\\[\\\\\\]\\^\\_\\`\\{\\|\\}\\~\n',
      '<p>!"#$%&amp;\'()*+,-./:;&lt;=&gt;?@[\\]^_`{|}~</p>\n',
    ],
    ['&nbsp; &amp; &copy; &AElig; &Dcaron;\n', '<p>\u00a0 &amp; © Æ Ď</p>\n'],
    ['`` foo ` bar ``\n', '<p><code>foo ` bar</code></p>\n'],
    ['*foo bar*\n', '<p><em>foo bar</em></p>\n'],
    ['**foo bar**\n', '<p><strong>foo bar</strong></p>\n'],
    ['*foo**bar**baz*\n', '<p><em>foo<strong>bar</strong>baz</em></p>\n'],
    ['[link](/uri "title")\n', '<p><a href="/uri" title="title" rel="nofollow">link</a></p>\n'],
    ['[link](</my uri>)\n', '<p><a href="/my%20uri" rel="nofollow">link</a></p>\n'],
    ['![foo](/url "title")\n', '<p><img src="/url" alt="foo" title="title"/></p>\n'],
    ['<http://foo.bar.baz>\n', '<p><a href="http://foo.bar.baz" rel="nofollow">http://foo.bar.baz</a></p>\n'],
    ['<foo@bar.example.com>\n', '<p><a href="mailto:foo@bar.example.com" rel="nofollow">foo@bar.example.com</a></p>\n'],
    ['foo  \nbaz\n', '<p>foo<br/>\nbaz</p>\n'],
    ['<del>*foo*</del>\n', '<p><del><em>foo</em></del></p>\n'],
  ];

  it.each(COMMONMARK)('renders CommonMark example %#', async (text, html) => {
    expect(await markdown({ Text: text, Mode: 'gfm' })).toBe(html);
  });

  const GFM: [string, string, string][] = [
    [
      'table',
      '| foo | bar |\n| --- | :-: |\n| baz | bim |\n',
      '<table>\n<thead>\n<tr>\n<th>foo</th>\n<th style="text-align:center">bar</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>baz</td>\n<td style="text-align:center">bim</td>\n</tr>\n</tbody>\n</table>\n',
    ],
    [
      'task list',
      '- [ ] foo\n- [x] bar\n',
      '<ul class="contains-task-list">\n<li class="task-list-item"><input class="task-list-item-checkbox" disabled type="checkbox"/> foo</li>\n<li class="task-list-item"><input class="task-list-item-checkbox" checked disabled type="checkbox"/> bar</li>\n</ul>\n',
    ],
    ['strikethrough', '~~Hi~~ Hello, world!\n', '<p><s>Hi</s> Hello, world!</p>\n'],
    [
      'www autolink',
      'www.commonmark.org/help\n',
      '<p><a href="http://www.commonmark.org/help" rel="nofollow">www.commonmark.org/help</a></p>\n',
    ],
    [
      'www autolink before punctuation',
      'Visit www.commonmark.org.\n',
      '<p>Visit <a href="http://www.commonmark.org" rel="nofollow">www.commonmark.org</a>.</p>\n',
    ],
    [
      'url autolink',
      'https://example.com/a?b=c\n',
      '<p><a href="https://example.com/a?b=c" rel="nofollow">https://example.com/a?b=c</a></p>\n',
    ],
    ['email autolink', 'foo@bar.baz\n', '<p><a href="mailto:foo@bar.baz" rel="nofollow">foo@bar.baz</a></p>\n'],
  ];

  it.each(GFM)('renders GFM %s', async (_name, text, html) => {
    expect(await markdown({ Text: text, Mode: 'gfm' })).toBe(html);
  });
});

describe('XSS corpus', () => {
  it(`has at least 40 vectors`, () => {
    expect(XSS_VECTORS.length).toBeGreaterThanOrEqual(40);
  });

  it.each(XSS_VECTORS.map((vector, index) => [index, vector]))(
    'leaves nothing executable of vector %i in any mode',
    async (_index, vector) => {
      for (const mode of ['markdown', 'gfm', 'comment']) {
        const html = await markdown({ Text: vector, Mode: mode, Context: `${alice.user.name}/${repoName}` });
        expect(executableLeftIn(html)).toEqual([]);
      }
      const file = await markup({ Mode: 'file', FilePath: 'x.md', Text: vector });
      expect(executableLeftIn(file)).toEqual([]);
    },
  );
});
