// Template catalogues (gitignore, licence, label), their custom overlays, and repository creation from them.
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;

const SECRET = 'never-serve-this-secret';

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  // Files a traversing name could reach: the data directory's app.ini and a neighbouring template folder.
  fs.writeFileSync(path.join(t.dataDir, 'app.ini'), `; ${SECRET}\n`);
  writeCustom('license', 'Escapee', SECRET);
  writeCustom('', 'app.ini', SECRET);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

function customDir(kind: string): string {
  return path.join(t.dataDir, 'custom', 'options', kind);
}

function writeCustom(kind: string, name: string, text: string): void {
  fs.mkdirSync(customDir(kind), { recursive: true });
  fs.writeFileSync(path.join(customDir(kind), name), text);
}

const get = (url: string) => t.request().get(`/api/v1${url}`);

const TRAVERSALS = [
  '..%2F..%2Fapp.ini',
  '..%2F..%2F..%2Fapp.ini',
  '%2E%2E%2F%2E%2E%2Fapp.ini',
  '..%5C..%5Capp.ini',
  '..%5C..%5C..%5Capp.ini',
  '%2Fetc%2Fpasswd',
  '..%2Flicense%2FEscapee',
  '..%5Clicense%5CEscapee',
  '....%2F%2Fapp.ini',
  'app.ini%00',
];

describe('gitignore templates', () => {
  it("lists Anvil's set, sorted, anonymously", async () => {
    const res = await get('/gitignore/templates').expect(200);
    const names: string[] = res.body;
    expect(names.length).toBeGreaterThanOrEqual(40);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(
      expect.arrayContaining(['Go', 'Node', 'Python', 'Java', 'C++', 'Rust', 'macOS', 'VisualStudioCode']),
    );
  });

  it('answers {name, source} by exact, case-sensitive name; 404 otherwise', async () => {
    const res = await get('/gitignore/templates/Go').expect(200);
    expect(res.body).toEqual({ name: 'Go', source: expect.stringContaining('*.test') });
    expect((await get('/gitignore/templates/C%2B%2B').expect(200)).body.name).toBe('C++');
    await get('/gitignore/templates/go').expect(404);
    await get('/gitignore/templates/GO').expect(404);
    await get('/gitignore/templates/NoSuchTemplate').expect(404);
  });

  it('never reads another file for a traversing name', async () => {
    for (const name of TRAVERSALS) {
      const res = await get(`/gitignore/templates/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
    // Forgejo cleans `..` away: what remains is looked up in the template folder only.
    expect((await get('/gitignore/templates/..%2FGo').expect(200)).body.name).toBe('Go');
  });

  it('overlays the custom folder: new names, replaced texts, hidden files and folders left out', async () => {
    writeCustom('gitignore', 'Anvil-Tool', 'anvil-cache/\n');
    writeCustom('gitignore', 'Go', 'custom-go-binary\n');
    writeCustom('gitignore', '.hidden', 'x\n');
    fs.mkdirSync(path.join(customDir('gitignore'), 'Folder'), { recursive: true });
    const names: string[] = (await get('/gitignore/templates').expect(200)).body;
    expect(names).toContain('Anvil-Tool');
    expect(names.filter((name) => name === 'Go')).toHaveLength(1);
    expect(names).not.toContain('.hidden');
    expect(names).not.toContain('Folder');
    expect(names).toEqual([...names].sort());
    expect((await get('/gitignore/templates/Anvil-Tool').expect(200)).body).toEqual({
      name: 'Anvil-Tool',
      source: 'anvil-cache/\n',
    });
    expect((await get('/gitignore/templates/Go').expect(200)).body.source).toBe('custom-go-binary\n');
    await get('/gitignore/templates/.hidden').expect(404);
    fs.rmSync(path.join(customDir('gitignore'), 'Go'));
    expect((await get('/gitignore/templates/Go').expect(200)).body.source).toContain('*.test');
  });
});

describe('licence templates', () => {
  it('lists every SPDX licence as {key, name, url}, Apache-2.0 and MIT first', async () => {
    const list: Array<{ key: string; name: string; url: string }> = (await get('/licenses').expect(200)).body;
    expect(list.length).toBeGreaterThan(500);
    expect(list.slice(0, 2).map((entry) => entry.key)).toEqual(['Apache-2.0', 'MIT']);
    expect(list[1]).toEqual({ key: 'MIT', name: 'MIT', url: 'http://localhost:3000/api/v1/licenses/MIT' });
    const rest = list.slice(2).map((entry) => entry.key);
    expect(rest).toEqual([...rest].sort());
    expect(rest).toEqual(expect.arrayContaining(['GPL-3.0-only', 'BSD-3-Clause', '0BSD', 'MPL-2.0', 'Unlicense']));
    expect(list.filter((entry) => entry.key === 'MIT')).toHaveLength(1);
    expect(list.find((entry) => entry.key === 'GPL-2.0+')?.url).toBe('http://localhost:3000/api/v1/licenses/GPL-2.0+');
  });

  it('answers the text by SPDX id with the implementation hint; 404 for unknown or differently cased ids', async () => {
    const res = await get('/licenses/MIT').expect(200);
    expect(res.body).toEqual({
      key: 'MIT',
      name: 'MIT',
      url: 'http://localhost:3000/api/v1/licenses/MIT',
      body: expect.stringContaining('Permission is hereby granted, free of charge'),
      implementation:
        'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file',
    });
    expect(res.body.body).toContain('<year>');
    expect((await get('/licenses/Apache-2.0').expect(200)).body.body).toContain('Apache License');
    await get('/licenses/mit').expect(404);
    await get('/licenses/No-Such-License-1.0').expect(404);
  });

  it('never reads another file for a traversing name', async () => {
    for (const name of [
      ...TRAVERSALS,
      '..%2F..%2Fnode_modules%2Fspdx-license-list%2Fpackage.json',
      '..%2Flicenses%2FMIT.json',
    ]) {
      const res = await get(`/licenses/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
  });

  it('overlays custom licences', async () => {
    writeCustom('license', 'Anvil-Community-1.0', 'Copyright [yyyy] [name of copyright owner]. Be kind.\n');
    const list: Array<{ key: string }> = (await get('/licenses').expect(200)).body;
    expect(list.map((entry) => entry.key)).toContain('Anvil-Community-1.0');
    const res = await get('/licenses/Anvil-Community-1.0').expect(200);
    expect(res.body.body).toBe('Copyright [yyyy] [name of copyright owner]. Be kind.\n');
    // The custom folder's other files are licences too, and nothing else.
    expect((await get('/licenses/Escapee').expect(200)).body.body).toBe(SECRET);
  });
});

describe('label templates', () => {
  it('lists the built-in Advanced and Default', async () => {
    const names: string[] = (await get('/label/templates').expect(200)).body;
    expect(names).toEqual(expect.arrayContaining(['Advanced', 'Default']));
    expect(names).toEqual([...names].sort());
  });

  it('answers the labels of a template: colour without #, description, exclusivity', async () => {
    const defaults = (await get('/label/templates/Default').expect(200)).body as Array<Record<string, unknown>>;
    expect(defaults.length).toBeGreaterThanOrEqual(5);
    expect(defaults).toContainEqual({
      name: 'bug',
      color: 'e11d48',
      description: 'Something does not work as described',
      exclusive: false,
    });
    for (const label of defaults) expect(label.color).toMatch(/^[0-9a-f]{6}$/);
    const advanced = (await get('/label/templates/Advanced').expect(200)).body as Array<Record<string, unknown>>;
    expect(advanced).toContainEqual({
      name: 'Priority/High',
      color: 'f97316',
      description: 'Next in line',
      exclusive: true,
    });
    expect(advanced.some((label) => label.exclusive === false)).toBe(true);
    await get('/label/templates/default').expect(404);
    await get('/label/templates/Default.yaml').expect(404);
    await get('/label/templates/Advanced.yaml').expect(404);
    await get('/label/templates/Nope').expect(404);
  });

  it('never reads another file for a traversing name', async () => {
    for (const name of TRAVERSALS) {
      const res = await get(`/label/templates/${name}`);
      expect([name, res.status]).toEqual([name, 404]);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    }
  });

  it('reads both formats; .yaml wins over .yml over no extension; custom wins over built-in', async () => {
    writeCustom('label', 'Mine', '#00ff00 legacy ; from the line format\n');
    expect((await get('/label/templates/Mine').expect(200)).body).toEqual([
      { name: 'legacy', color: '00ff00', description: 'from the line format', exclusive: false },
    ]);
    writeCustom('label', 'Mine.yml', 'labels:\n  - name: from-yml\n    color: "001122"\n');
    expect((await get('/label/templates/Mine').expect(200)).body).toEqual([
      { name: 'from-yml', color: '001122', description: '', exclusive: false },
    ]);
    writeCustom(
      'label',
      'Mine.yaml',
      'labels:\n  - name: Scope/one\n    color: abc\n    exclusive: true\n    description: short colour\n',
    );
    expect((await get('/label/templates/Mine').expect(200)).body).toEqual([
      { name: 'Scope/one', color: 'aabbcc', description: 'short colour', exclusive: true },
    ]);
    const names: string[] = (await get('/label/templates').expect(200)).body;
    expect(names.filter((name) => name === 'Mine')).toHaveLength(1);

    writeCustom('label', 'Default.yml', 'labels:\n  - name: only-custom\n    color: "#123456"\n');
    expect((await get('/label/templates/Default').expect(200)).body).toEqual([
      { name: 'only-custom', color: '123456', description: '', exclusive: false },
    ]);
    fs.rmSync(path.join(customDir('label'), 'Default.yml'));
  });

  it('answers 404 for a template file that cannot be read', async () => {
    writeCustom('label', 'Broken.yaml', 'labels:\n  - name: no colour\n');
    writeCustom('label', 'BadColour', '#zzzzzz nope\n');
    writeCustom('label', 'NotYaml.yaml', 'labels: [unclosed\n');
    await get('/label/templates/Broken').expect(404);
    await get('/label/templates/BadColour').expect(404);
    await get('/label/templates/NotYaml').expect(404);
  });
});

describe('REQUIRE_SIGNIN_VIEW', () => {
  it('closes the catalogues to anonymous callers and keeps them open to signed-in ones', async () => {
    const closed = await startTestApp({
      ANVIL__service__REQUIRE_SIGNIN_VIEW: 'true',
      ANVIL__repository__PREFERRED_LICENSES: 'mit, GPL-3.0-only',
    });
    try {
      for (const url of [
        '/gitignore/templates',
        '/gitignore/templates/Go',
        '/licenses',
        '/licenses/MIT',
        '/label/templates',
        '/label/templates/Default',
      ]) {
        await closed.request().get(`/api/v1${url}`).expect(403);
      }
      const bob = await createTestUser(closed);
      await closed.request().get('/api/v1/gitignore/templates/Go').set('Authorization', bob.auth).expect(200);
      // PREFERRED_LICENSES in any case, in its configured order.
      const list: Array<{ key: string }> = (
        await closed.request().get('/api/v1/licenses').set('Authorization', bob.auth).expect(200)
      ).body;
      expect(list.slice(0, 3).map((entry) => entry.key)).toEqual(['MIT', 'GPL-3.0-only', '0BSD']);
    } finally {
      await closed.close();
    }
  });
});

describe('repository creation from templates', () => {
  const create = (user: TestUser, body: Record<string, unknown>, url = '/api/v1/user/repos') =>
    t.request().post(url).set('Authorization', user.auth).send(body);

  async function clone(owner: string, repo: string): Promise<string> {
    const dir = path.join(tempDir(), repo);
    await gitOk(['clone', '-q', `${base}${owner}/${repo}.git`, dir]);
    return dir;
  }

  const repoLabels = async (repoId: number) =>
    (await t.context.db.prisma.label.findMany({ where: { repoId }, orderBy: { id: 'asc' } })).map(
      ({ name, color, description, exclusive, orgId }) => ({ name, color, description, exclusive, orgId }),
    );

  it('writes README.md, .gitignore and LICENSE into the first commit and creates the labels', async () => {
    const res = await create(alice, {
      name: 'from-templates',
      description: 'made from templates',
      auto_init: true,
      readme: 'Default',
      gitignores: 'Go,Node',
      license: 'MIT',
      issue_labels: 'Advanced',
    }).expect(201);
    expect(res.body.empty).toBe(false);
    const dir = await clone(alice.user.name, 'from-templates');
    expect((await gitOk(['ls-tree', '--name-only', 'HEAD'], dir)).split('\n').filter(Boolean).sort()).toEqual([
      '.gitignore',
      'LICENSE',
      'README.md',
    ]);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# from-templates\n\nmade from templates\n');
    const go = (await get('/gitignore/templates/Go').expect(200)).body.source;
    const node = (await get('/gitignore/templates/Node').expect(200)).body.source;
    expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe(`# ---> Go\n${go}\n# ---> Node\n${node}\n`);
    const license = fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8');
    expect(license).toContain(`Copyright (c) ${new Date().getFullYear()} ${alice.user.name}`);
    expect(license).toContain('Permission is hereby granted');
    expect(license).not.toMatch(/<year>|<copyright holders>/);

    const template = (await get('/label/templates/Advanced').expect(200)).body as Array<{
      name: string;
      color: string;
      description: string;
      exclusive: boolean;
    }>;
    expect(await repoLabels(res.body.id)).toEqual(
      template.map((label) => ({ ...label, color: `#${label.color}`, orgId: 0 })),
    );
  });

  it('fills Apache-2.0 and custom licences, and uses custom readme templates', async () => {
    writeCustom('readme', 'Short', '{Name} by {OwnerName}: {Description} ({CloneURL.HTTPS}) {Unknown}\n');
    await create(alice, {
      name: 'apache',
      auto_init: true,
      license: 'Apache-2.0',
      readme: 'Short',
      description: 'd',
    }).expect(201);
    const dir = await clone(alice.user.name, 'apache');
    expect(fs.readFileSync(path.join(dir, 'LICENSE'), 'utf8')).toContain(
      `Copyright ${new Date().getFullYear()} ${alice.user.name}`,
    );
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe(
      `apache by ${alice.user.name}: d (http://localhost:3000/${alice.user.name}/apache.git) {Unknown}\n`,
    );

    await create(alice, {
      name: 'custom-licence',
      auto_init: true,
      license: 'Anvil-Community-1.0',
      gitignores: 'Anvil-Tool',
    }).expect(201);
    const custom = await clone(alice.user.name, 'custom-licence');
    expect(fs.readFileSync(path.join(custom, 'LICENSE'), 'utf8')).toBe(
      `Copyright ${new Date().getFullYear()} ${alice.user.name}. Be kind.\n`,
    );
    expect(fs.readFileSync(path.join(custom, '.gitignore'), 'utf8')).toBe('# ---> Anvil-Tool\nanvil-cache/\n\n');
  });

  it('applies a label template without auto_init; the templates of files need auto_init', async () => {
    const res = await create(alice, {
      name: 'labels-only',
      issue_labels: 'Default',
      gitignores: 'Go',
      license: 'MIT',
    }).expect(201);
    expect(res.body.empty).toBe(true);
    const labels = await repoLabels(res.body.id);
    expect(labels).toContainEqual({
      name: 'bug',
      color: '#e11d48',
      description: 'Something does not work as described',
      exclusive: false,
      orgId: 0,
    });
    expect(labels.length).toBe((await get('/label/templates/Default').expect(200)).body.length);
  });

  it('applies label templates to organization repositories', async () => {
    const org = await createTestOrg(t, alice.user);
    const res = await create(
      alice,
      { name: 'org-labels', issue_labels: 'Mine' },
      `/api/v1/orgs/${org.name}/repos`,
    ).expect(201);
    expect(await repoLabels(res.body.id)).toEqual([
      { name: 'Scope/one', color: '#aabbcc', description: 'short colour', exclusive: true, orgId: 0 },
    ]);
  });

  it('refuses unknown or unreadable templates before creating anything', async () => {
    const refused: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ auto_init: true, gitignores: 'Go,NoSuchTemplate' }, 422, /gitignore template does not exist/],
      [{ auto_init: true, gitignores: '..%2F..%2Fapp.ini' }, 422, /gitignore/],
      [{ auto_init: true, gitignores: '../../app.ini' }, 422, /gitignore/],
      [{ auto_init: true, gitignores: '..\\license\\Escapee' }, 422, /gitignore/],
      [{ auto_init: true, license: '../../etc/passwd' }, 422, /license template does not exist/],
      [{ auto_init: true, license: 'mit' }, 422, /license/],
      [{ issue_labels: 'Nope' }, 422, /label template does not exist/],
      [{ issue_labels: 'Broken' }, 422, /label template cannot be read/],
      [{ issue_labels: '../../app.ini' }, 422, /label template/],
      [
        { auto_init: true, readme: 'Nope' },
        400,
        /readme template does not exist, available templates: \[Default Short\]/,
      ],
    ];
    for (const [body, status, message] of refused) {
      const res = await create(alice, { name: 'refused', ...body });
      expect([body, res.status]).toEqual([body, status]);
      expect(res.body.message).toMatch(message);
    }
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: 'refused' } })).toBe(0);
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, alice.user.lowerName, 'refused.git'))).toBe(
      false,
    );
  });
});
