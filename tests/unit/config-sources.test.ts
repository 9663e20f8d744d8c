import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadSettings } from '../../src/config/settings.ts';
import { parseIniText } from '../../src/config/ini-file.ts';
import { parseSize } from '../../src/config/setting-types.ts';

describe("app.ini in Forgejo's syntax", () => {
  it('reads inline comments, quotes, """ values and dotted sections', () => {
    const sections = parseIniText(
      [
        'APP_NAME = Forgejo: Beyond coding ; the name',
        '[server]',
        'DOMAIN = git.example.com # inline',
        'LANDING = "a;b#c"',
        "ROOT = 'single'",
        '[Storage.Packages]',
        'PATH = /srv/pkg',
        '[git.config]',
        'receive.maxInputSize = 1g',
        '[ui]',
        'BANNER = """first line',
        'second "quoted" ; kept',
        'last"""',
      ].join('\n'),
    );
    expect(sections.get('')?.get('APP_NAME')).toBe('Forgejo: Beyond coding');
    expect(sections.get('server')?.get('DOMAIN')).toBe('git.example.com');
    expect(sections.get('server')?.get('LANDING')).toBe('a;b#c');
    expect(sections.get('server')?.get('ROOT')).toBe('single');
    expect(sections.get('storage.packages')?.get('PATH')).toBe('/srv/pkg');
    expect(sections.has('storage')).toBe(false);
    expect(sections.get('git.config')?.get('RECEIVE.MAXINPUTSIZE')).toBe('1g');
    expect(sections.get('ui')?.get('BANNER')).toBe('first line\nsecond "quoted" ; kept\nlast');
  });

  it('refuses a """ value that is never closed', () => {
    expect(() => parseIniText('[ui]\nA = """open\nstill open')).toThrow(ConfigError);
  });

  it.each([
    ['100MB', 100_000_000],
    ['1 GiB', 1024 ** 3],
    ['512k', 512 * 1024],
    ['10m', 10 * 1024 ** 2],
    ['4096', 4096],
    ['1.5 MiB', 1.5 * 1024 ** 2],
  ])('reads the size %s', (text, bytes) => expect(parseSize(text)).toBe(bytes));

  it.each(['abc', '-5', '1e3', '10 parsecs'])('refuses the size %s', (text) => expect(parseSize(text)).toBeNull());
});

describe('settings sources', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-config-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('takes FORGEJO__ and GITEA__ overrides, __FILE values and _0X2E_ escapes; ANVIL__ wins', () => {
    const secret = path.join(dataDir, 'token');
    fs.writeFileSync(secret, 's3cret\n');
    const settings = loadSettings({
      ANVIL_DATA_DIR: dataDir,
      FORGEJO__api__MAX_RESPONSE_ITEMS: '41',
      GITEA__UI__ISSUE_PAGING_NUM: '7',
      FORGEJO__metrics__TOKEN__FILE: secret,
      FORGEJO__quota_0X2E_default__TOTAL: '1 GiB',
      GITEA__server__HTTP_PORT: '4100',
      ANVIL__server__HTTP_PORT: '4200',
    });
    expect(settings.api.MAX_RESPONSE_ITEMS).toBe(41);
    expect(settings.ui.ISSUE_PAGING_NUM).toBe(7);
    expect(settings.metrics.TOKEN).toBe('s3cret');
    expect(settings['quota.default'].TOTAL).toBe(1024 ** 3);
    expect(settings.server.HTTP_PORT).toBe(4200);
  });

  it('finds the file by --config, then ANVIL_CONFIG, then the data directory', () => {
    const inData = path.join(dataDir, 'app.ini');
    const elsewhere = path.join(dataDir, 'elsewhere.ini');
    const flagged = path.join(dataDir, 'flagged.ini');
    fs.writeFileSync(inData, '[ui]\nISSUE_PAGING_NUM = 1\n');
    fs.writeFileSync(elsewhere, '[ui]\nISSUE_PAGING_NUM = 2\n');
    fs.writeFileSync(flagged, '[ui]\nISSUE_PAGING_NUM = 3\n');
    expect(loadSettings({ ANVIL_DATA_DIR: dataDir }).ui.ISSUE_PAGING_NUM).toBe(1);
    expect(loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL_CONFIG: elsewhere }).ui.ISSUE_PAGING_NUM).toBe(2);
    expect(
      loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL_CONFIG: elsewhere }, { configFile: flagged }).ui.ISSUE_PAGING_NUM,
    ).toBe(3);
    expect(() => loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL_CONFIG: path.join(dataDir, 'none.ini') })).toThrow(
      /cannot read the configuration file/,
    );
  });

  it("composes a PostgreSQL URL from Forgejo's [database] keys, and refuses mysql and mssql", () => {
    fs.writeFileSync(
      path.join(dataDir, 'app.ini'),
      '[database]\nDB_TYPE = postgres\nHOST = db.internal:5433\nNAME = forge\nUSER = git\nPASSWD = "p@ss;word"\nSSL_MODE = require\nSCHEMA = anvil\n',
    );
    const url = new URL(loadSettings({ ANVIL_DATA_DIR: dataDir }).database.URL);
    expect(url.host).toBe('db.internal:5433');
    expect(url.pathname).toBe('/forge');
    expect(decodeURIComponent(url.password)).toBe('p@ss;word');
    expect(url.searchParams.get('sslmode')).toBe('require');
    expect(url.searchParams.get('options')).toBe('-c search_path=anvil');
    const socket = loadSettings({ ANVIL_DATA_DIR: dataDir, FORGEJO__database__HOST: '/run/postgresql' });
    expect(new URL(socket.database.URL).searchParams.get('host')).toBe('/run/postgresql');
    expect(() => loadSettings({ ANVIL_DATA_DIR: dataDir, FORGEJO__database__DB_TYPE: 'mysql' })).toThrow(
      /\[database\] DB_TYPE: "mysql" is not supported/,
    );
    const sqlite = loadSettings({
      ANVIL_DATA_DIR: dataDir,
      FORGEJO__database__DB_TYPE: 'sqlite3',
      FORGEJO__database__PATH: 'x.db',
    });
    expect(sqlite.database.URL).toBe('');
    expect(sqlite.database.SQLITE_PATH).toBe(path.join(dataDir, 'x.db'));
  });

  it('lists unknown sections and keys', () => {
    fs.writeFileSync(
      path.join(dataDir, 'app.ini'),
      'RUN_USER = git\n[server]\nNO_SUCH = 1\n[oauth2]\nENABLED = true\n[storage.x]\nPATH = y\n',
    );
    expect(loadSettings({ ANVIL_DATA_DIR: dataDir }).unknownKeys).toEqual(['[server] NO_SUCH', '[oauth2]']);
  });
});
