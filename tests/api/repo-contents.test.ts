// Files, commits and git objects through the API, checked with the git client: a file written through the API is a
// commit a clone sees. Every response is checked against the contract.
import path from 'node:path';
import fs from 'node:fs';
import type { Server } from 'node:http';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
let repoPath: string;

const b64 = (text: string) => Buffer.from(text).toString('base64');
const api = (suffix: string) => `/api/v1/repos/${repoPath}${suffix}`;

async function clone(branch = 'main'): Promise<string> {
  const dir = path.join(tempDir(), 'clone');
  await gitOk(['clone', '--quiet', '--branch', branch, `${base}${repoPath}.git`, dir]);
  return dir;
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'files', auto_init: true, readme: 'Default' })
    .expect(201);
  repoPath = `${alice.user.name}/files`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('file writes are commits', () => {
  let fileSha: string;

  it('creates a file (201); a clone sees the commit, by the caller, with the message', async () => {
    const created = await t
      .request()
      .post(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({ content: b64('hello\n'), message: 'Say hello' })
      .expect(201);
    expect(created.body.content).toMatchObject({ name: 'hello.txt', path: 'docs/hello.txt', type: 'file', size: 6 });
    expect(created.body.commit.message).toBe('Say hello\n');
    fileSha = created.body.content.sha;
    const dir = await clone();
    expect(fs.readFileSync(path.join(dir, 'docs/hello.txt'), 'utf8')).toBe('hello\n');
    expect(await gitOk(['log', '-1', '--format=%H %an %s'], dir)).toBe(
      `${created.body.commit.sha} ${alice.user.name} Say hello\n`,
    );
  });

  it('reads a file, a directory and the root; a missing path or ref is 404', async () => {
    const file = await t.request().get(api('/contents/docs/hello.txt')).expect(200);
    expect(file.body).toMatchObject({ type: 'file', encoding: 'base64', content: b64('hello\n'), sha: fileSha });
    const dir = await t.request().get(api('/contents/docs')).expect(200);
    expect(dir.body).toEqual([expect.objectContaining({ name: 'hello.txt', type: 'file' })]);
    expect(dir.body[0].content).toBeUndefined();
    const root = await t.request().get(api('/contents')).expect(200);
    expect(root.body.map((entry: { name: string }) => entry.name).sort()).toEqual(['README.md', 'docs']);
    // Each entry's last commit: the file's own, and for the directory the commit that changed what is below it.
    const byName = new Map(root.body.map((entry: { name: string }) => [entry.name, entry]));
    const readme = await t.request().get(api('/commits?path=README.md')).expect(200);
    expect(byName.get('README.md')).toMatchObject({ last_commit_sha: readme.body[0].sha });
    expect(byName.get('docs')).toMatchObject({ last_commit_sha: file.body.last_commit_sha });
    await t.request().get(api('/contents/nope.txt')).expect(404);
    await t.request().get(api('/contents/docs/hello.txt?ref=nobranch')).expect(404);
  });

  it('serves raw bytes, by ref query or ref in the path', async () => {
    const raw = await t.request().get(api('/raw/docs/hello.txt')).expect(200);
    expect(raw.text ?? raw.body.toString()).toBe('hello\n');
    const byRef = await t.request().get(api('/raw/main/docs/hello.txt')).expect(200);
    expect(byRef.text ?? byRef.body.toString()).toBe('hello\n');
    await t.request().get(api('/media/docs/hello.txt?ref=main')).expect(200);
    await t.request().get(api('/raw/docs/missing.txt')).expect(404);
  });

  it('refuses a create over an existing file (422), a stale update sha (422), a stale delete sha (400)', async () => {
    await t
      .request()
      .post(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({ content: b64('again') })
      .expect(422);
    await t
      .request()
      .put(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({ content: b64('x'), sha: '0'.repeat(40) })
      .expect(422);
    await t
      .request()
      .delete(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({ sha: '0'.repeat(40) })
      .expect(400);
    await t
      .request()
      .post(api('/contents/docs/hello.txt/below'))
      .set('Authorization', alice.auth)
      .send({ content: b64('x') })
      .expect(422);
    await t
      .request()
      .post(api('/contents/x.txt'))
      .set('Authorization', bob.auth)
      .send({ content: b64('x') })
      .expect(403);
    await t
      .request()
      .post(api('/contents/x.txt'))
      .send({ content: b64('x') })
      .expect(401);
  });

  it('updates on a new branch with the given author; the base branch is unchanged', async () => {
    const updated = await t
      .request()
      .put(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({
        content: b64('hello world\n'),
        sha: fileSha,
        new_branch: 'edit',
        author: { name: 'Ann Author', email: 'ann@example.com' },
      })
      .expect(200);
    expect(updated.body.commit.author).toMatchObject({ name: 'Ann Author', email: 'ann@example.com' });
    expect(updated.body.commit.committer).toMatchObject({ name: 'Ann Author' });
    const dir = await clone('edit');
    expect(fs.readFileSync(path.join(dir, 'docs/hello.txt'), 'utf8')).toBe('hello world\n');
    const main = await t.request().get(api('/contents/docs/hello.txt?ref=main')).expect(200);
    expect(main.body.sha).toBe(fileSha);
    await t
      .request()
      .put(api('/contents/docs/hello.txt'))
      .set('Authorization', alice.auth)
      .send({ content: b64('x'), sha: fileSha, new_branch: 'edit' })
      .expect(422);
  });

  it('changes several files in one commit, and deletes a file', async () => {
    const changed = await t
      .request()
      .post(api('/contents'))
      .set('Authorization', alice.auth)
      .send({
        files: [
          { operation: 'create', path: 'a.txt', content: b64('a') },
          {
            operation: 'update',
            path: 'docs/renamed.txt',
            from_path: 'docs/hello.txt',
            sha: fileSha,
            content: b64('r'),
          },
        ],
        message: 'Two at once',
      })
      .expect(201);
    expect(changed.body.files).toHaveLength(2);
    const dir = await clone();
    expect(fs.existsSync(path.join(dir, 'docs/hello.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'docs/renamed.txt'), 'utf8')).toBe('r');
    expect(await gitOk(['log', '-1', '--format=%s'], dir)).toBe('Two at once\n');
    const a = await t.request().get(api('/contents/a.txt')).expect(200);
    await t
      .request()
      .delete(api('/contents/a.txt'))
      .set('Authorization', alice.auth)
      .send({ sha: a.body.sha })
      .expect(200);
    await t.request().get(api('/contents/a.txt')).expect(404);
  });
});

describe('commits and git objects', () => {
  it('lists commits with paging headers, by path, and gets one with its files', async () => {
    const list = await t.request().get(api('/commits?limit=2')).expect(200);
    expect(list.body).toHaveLength(2);
    expect(list.headers['x-total-count']).toBe('4');
    expect(list.headers['x-hasmore']).toBe('true');
    expect(list.headers.link).toContain('rel="next"');
    const byPath = await t.request().get(api('/commits?path=README.md')).expect(200);
    expect(byPath.body).toHaveLength(1);
    const one = await t
      .request()
      .get(api(`/git/commits/${list.body[0].sha}`))
      .expect(200);
    expect(one.body.files.length).toBeGreaterThan(0);
    expect(one.body.stats.total).toBeGreaterThan(0);
    await t
      .request()
      .get(api(`/git/commits/${'f'.repeat(40)}`))
      .expect(404);
    await t.request().get(api('/commits?sha=nobranch')).expect(404);
  });

  it('compares two refs', async () => {
    const compare = await t.request().get(api('/compare/main...edit')).expect(200);
    expect(compare.body.total_commits).toBe(1);
    await t.request().get(api('/compare/main...nope')).expect(404);
  });

  it('reads trees, blobs and refs', async () => {
    const commit = await t.request().get(api('/git/commits/main')).expect(200);
    const tree = await t
      .request()
      .get(api(`/git/trees/${commit.body.commit.tree.sha}?recursive=true`))
      .expect(200);
    const readme = tree.body.tree.find((entry: { path: string }) => entry.path === 'README.md');
    expect(readme).toMatchObject({ type: 'blob', mode: '100644' });
    const blob = await t
      .request()
      .get(api(`/git/blobs/${readme.sha}`))
      .expect(200);
    expect(Buffer.from(blob.body.content, 'base64').toString()).toContain('files');
    await t
      .request()
      .get(api(`/git/blobs/${'e'.repeat(40)}`))
      .expect(404);
    const refs = await t.request().get(api('/git/refs')).expect(200);
    expect(refs.body.map((ref: { ref: string }) => ref.ref)).toEqual(['refs/heads/edit', 'refs/heads/main']);
    const heads = await t.request().get(api('/git/refs/heads/main')).expect(200);
    expect(heads.body[0].object.sha).toBe(commit.body.sha);
    await t.request().get(api('/git/refs/tags')).expect(404);
  });

  it('streams archives', async () => {
    const zip = await t
      .request()
      .get(api('/archive/main.zip'))
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect((zip.body as Buffer).subarray(0, 2).toString()).toBe('PK');
    await t.request().get(api('/archive/main.rar')).expect(404);
    await t.request().get(api('/archive/nobranch.zip')).expect(404);
  });
});

describe('an empty repository', () => {
  it('takes its first commit through the contents API; commits of an empty repository are 409', async () => {
    await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: 'empty' }).expect(201);
    const empty = `/api/v1/repos/${alice.user.name}/empty`;
    await t.request().get(`${empty}/commits`).expect(409);
    await t
      .request()
      .post(`${empty}/contents/first.txt`)
      .set('Authorization', alice.auth)
      .send({ content: b64('first') })
      .expect(201);
    const repo = await t.request().get(empty).expect(200);
    expect(repo.body.empty).toBe(false);
    await t.request().get(`${empty}/commits`).expect(200);
  });
});

describe('odd input', () => {
  it('answers odd paths, refs and shas with a 4xx or an empty success, never a 500', async () => {
    const odd = [
      '..',
      '.',
      '-',
      '-rf',
      'HEAD',
      'main~1',
      'main^{tree}',
      ':README.md',
      '%2e%2e',
      'a%00b',
      'x'.repeat(300),
    ];
    const routes = (value: string) => [
      `/contents/${value}`,
      `/contents?ref=${value}`,
      `/raw/${value}`,
      `/archive/${value}.zip`,
      `/archive/${value}.bundle`,
      `/git/commits/${value}`,
      `/commits?sha=${value}&path=${value}&not=${value}`,
      `/compare/${value}...${value}`,
      `/git/trees/${value}`,
      `/git/blobs/${value}`,
      `/git/refs/${value}`,
      `/statuses/${value}`,
      `/commits/${value}/status`,
    ];
    for (const value of odd) {
      for (const route of routes(value)) {
        const response = await t.request().get(api(route)).set('Authorization', alice.auth);
        expect([route, response.status < 500]).toEqual([route, true]);
      }
    }
    const writes = [
      { path: '/contents/.git/config', body: { content: b64('x') } },
      { path: '/contents/a/../b', body: { content: b64('x') } },
      { path: '/contents/x.txt', body: { content: '***not base64***' } },
      { path: '/contents/x.txt', body: { content: b64('x'), new_branch: 'bad..name' } },
      { path: '/contents/x.txt', body: { content: b64('x'), dates: { author: 'yesterday' } } },
    ];
    for (const write of writes) {
      const response = await t.request().post(api(write.path)).set('Authorization', alice.auth).send(write.body);
      expect([write.path, response.status]).toEqual([write.path, 422]);
    }
  });
});

describe('editorconfig', () => {
  it('answers the properties for a file from the root .editorconfig; none there is 404', async () => {
    await t.request().get(api('/editorconfig/src/main.go')).expect(404);
    const config = 'root = true\n[*]\nindent_style = space\nindent_size = 2\n[*.go]\nindent_style = tab\n';
    await t
      .request()
      .post(api('/contents/.editorconfig'))
      .set('Authorization', alice.auth)
      .send({ content: b64(config) })
      .expect(201);
    const go = await t.request().get(api('/editorconfig/src/main.go')).expect(200);
    expect(go.body).toMatchObject({ indent_style: 'tab' });
    const md = await t.request().get(api('/editorconfig/README.md')).expect(200);
    expect(md.body).toMatchObject({ indent_style: 'space', indent_size: 2 });
    await t.request().get(api('/editorconfig/README.md?ref=edit')).expect(404);
  });
});

describe('languages', () => {
  it('counts the bytes of programming and markup files at the default branch, not vendored ones or prose', async () => {
    await t
      .request()
      .post(api('/contents'))
      .set('Authorization', alice.auth)
      .send({
        files: [
          { operation: 'create', path: 'src/main.go', content: b64('package main\n') },
          { operation: 'create', path: 'src/app.ts', content: b64('export {};\n') },
          { operation: 'create', path: 'src/view.ts', content: b64('export const a = 1;\n') },
          { operation: 'create', path: 'vendor/dep/dep.go', content: b64('package dep\n'.repeat(10)) },
        ],
      })
      .expect(201);
    const languages = await t.request().get(api('/languages')).expect(200);
    expect(languages.body).toEqual({ Go: 13, TypeScript: 31 });
    await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: 'nothing' }).expect(201);
    const none = await t.request().get(`/api/v1/repos/${alice.user.name}/nothing/languages`).expect(200);
    expect(none.body).toEqual({});
  });
});
