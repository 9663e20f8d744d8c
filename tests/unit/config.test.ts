import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadSettings } from '../../src/config/settings.ts';
import { parseIni } from '../../src/config/sources.ts';

describe('settings', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-config-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('has Forgejo defaults, with quota and federation on', () => {
    const settings = loadSettings({ ANVIL_DATA_DIR: dataDir });
    expect(settings.api.MAX_RESPONSE_ITEMS).toBe(50);
    expect(settings.security.MIN_PASSWORD_LENGTH).toBe(8);
    expect(settings.quota.ENABLED).toBe(true);
    expect(settings.federation.ENABLED).toBe(true);
    expect(settings.server.ROOT_URL).toBe('http://localhost:3000/');
    expect(settings.database.SQLITE_PATH).toBe(path.join(dataDir, 'anvil.db'));
  });

  it('reads app.ini and lets ANVIL__section__KEY override it', () => {
    fs.writeFileSync(
      path.join(dataDir, 'app.ini'),
      '[api]\nMAX_RESPONSE_ITEMS = 20\n; comment\n[quota.default]\nTOTAL = 100\n[security]\nPASSWORD_COMPLEXITY = lower,digit\n',
    );
    const settings = loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL__api__MAX_RESPONSE_ITEMS: '40', PORT: '4000' });
    expect(settings.api.MAX_RESPONSE_ITEMS).toBe(40);
    expect(settings['quota.default'].TOTAL).toBe(100);
    expect(settings.security.PASSWORD_COMPLEXITY).toEqual(['lower', 'digit']);
    expect(settings.server.ROOT_URL).toBe('http://localhost:4000/');
    expect(
      loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL__quota_0x2E_default__TOTAL: '7' })['quota.default'].TOTAL,
    ).toBe(7);
  });

  it("reads git's size notation, and git's own keys under [git.config] as Forgejo writes them", () => {
    expect(loadSettings({ ANVIL_DATA_DIR: dataDir })['git.config']['RECEIVE.MAXINPUTSIZE']).toBe(2 * 1024 ** 3);
    fs.writeFileSync(
      path.join(dataDir, 'app.ini'),
      '[git.config]\nreceive.maxInputSize = 500m\n[git]\nHTTP_MAX_REQUEST_BUFFER = 4096\n',
    );
    const settings = loadSettings({ ANVIL_DATA_DIR: dataDir });
    expect(settings['git.config']['RECEIVE.MAXINPUTSIZE']).toBe(500 * 1024 ** 2);
    expect(settings.git.HTTP_MAX_REQUEST_BUFFER).toBe(4096);
    const fromEnv = loadSettings({ ANVIL_DATA_DIR: dataDir, ANVIL__git_0x2E_config__receive_0x2E_maxInputSize: '64k' });
    expect(fromEnv['git.config']['RECEIVE.MAXINPUTSIZE']).toBe(64 * 1024);
  });

  it.each([
    ['ANVIL__git__HTTP_MAX_REQUEST_BUFFER', '10 parsecs', /\[git\] HTTP_MAX_REQUEST_BUFFER/],
    ['ANVIL__api__MAX_RESPONSE_ITEMS', 'many', /\[api\] MAX_RESPONSE_ITEMS/],
    ['ANVIL__quota__ENABLED', 'perhaps', /\[quota\] ENABLED/],
    ['ANVIL__security__PASSWORD_COMPLEXITY', 'lower,emoji', /PASSWORD_COMPLEXITY/],
    ['DATABASE_URL', 'mysql://x', /\[database\] URL/],
  ])('refuses %s=%s naming the key', (key, value, message) => {
    expect(() => loadSettings({ ANVIL_DATA_DIR: dataDir, [key]: value })).toThrow(ConfigError);
    expect(() => loadSettings({ ANVIL_DATA_DIR: dataDir, [key]: value })).toThrow(message);
  });

  it('parses quoted ini values', () => {
    expect(parseIni('[server]\nROOT_URL = "http://x/"').get('server')?.get('ROOT_URL')).toBe('http://x/');
  });
});
