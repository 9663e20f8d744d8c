// Where package blobs and avatars live, from [storage], [storage.<name>], [storage.<type>] and the subsystems' own
// keys, with Forgejo's precedence (modules/setting/storage.go and storage_test.go).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadSettings } from '../../src/config/settings.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-storage-'));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function storageFor(ini: string, env: Record<string, string> = {}) {
  fs.writeFileSync(path.join(dataDir, 'app.ini'), ini);
  return loadSettings({ ANVIL_DATA_DIR: dataDir, ...env }).storage;
}

const MINIO = `
[storage]
STORAGE_TYPE = minio
MINIO_ENDPOINT = s3.example.test:9000
MINIO_ACCESS_KEY_ID = key
MINIO_SECRET_ACCESS_KEY = secret
MINIO_BUCKET = forge
MINIO_LOCATION = eu-west-1
MINIO_USE_SSL = true
`;

describe('local storage', () => {
  it('keeps each subsystem in its folder under APP_DATA_PATH by default', () => {
    const storage = storageFor('');
    expect(storage.packages).toEqual({ type: 'local', path: path.join(dataDir, 'packages') });
    expect(storage.avatars).toEqual({ type: 'local', path: path.join(dataDir, 'avatars') });
  });

  it('puts the folders under [storage] PATH, relative to APP_DATA_PATH or absolute', () => {
    expect(storageFor('[storage]\nPATH = /srv/forge\n').packages).toEqual({
      type: 'local',
      path: '/srv/forge/packages',
    });
    expect(storageFor('[storage]\nSTORAGE_TYPE = local\nPATH = stores\n').avatars).toEqual({
      type: 'local',
      path: path.join(dataDir, 'stores', 'avatars'),
    });
  });

  it('takes [packages] PATH and [picture] AVATAR_UPLOAD_PATH as the folders themselves, under [storage] PATH when relative', () => {
    const storage = storageFor(
      '[storage]\nPATH = /srv/forge\n[packages]\nPATH = blobs\n[picture]\nAVATAR_UPLOAD_PATH = /var/avatars\n',
    );
    expect(storage.packages).toEqual({ type: 'local', path: '/srv/forge/blobs' });
    expect(storage.avatars).toEqual({ type: 'local', path: '/var/avatars' });
  });

  it('takes [storage.packages] PATH as the folder', () => {
    expect(storageFor('[storage.packages]\nPATH = /data/pkgs\n').packages).toEqual({
      type: 'local',
      path: '/data/pkgs',
    });
    expect(storageFor('[storage.packages]\nSTORAGE_TYPE = local\nPATH = pkgs\n').packages).toEqual({
      type: 'local',
      path: path.join(dataDir, 'pkgs'),
    });
  });

  it('lets [packages] PATH win over [storage.packages] PATH', () => {
    expect(
      storageFor('[storage.packages]\nSTORAGE_TYPE = local\nPATH = /data/pkgs\n[packages]\nPATH = /tmp/pkgs\n')
        .packages,
    ).toEqual({ type: 'local', path: '/tmp/pkgs' });
  });
});

describe('minio storage', () => {
  it('puts every subsystem in the [storage] bucket under <name>/ when [storage] says minio', () => {
    const storage = storageFor(MINIO);
    const expected = {
      type: 'minio',
      endpoint: 's3.example.test:9000',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      bucket: 'forge',
      location: 'eu-west-1',
      useSsl: true,
    };
    expect(storage.packages).toEqual({ ...expected, basePath: 'packages/' });
    expect(storage.avatars).toEqual({ ...expected, basePath: 'avatars/' });
  });

  it("has Forgejo's defaults for the keys not given", () => {
    expect(storageFor('[storage]\nSTORAGE_TYPE = minio\n').packages).toEqual({
      type: 'minio',
      endpoint: 'localhost:9000',
      accessKeyId: '',
      secretAccessKey: '',
      bucket: 'gitea',
      location: 'us-east-1',
      useSsl: false,
      basePath: 'packages/',
    });
  });

  it('puts a [storage] MINIO_BASE_PATH before each subsystem folder, without a leading slash', () => {
    const storage = storageFor(`${MINIO}MINIO_BASE_PATH = /prefix\n`);
    expect(storage.packages).toMatchObject({ basePath: 'prefix/packages/' });
    expect(storage.avatars).toMatchObject({ basePath: 'prefix/avatars/' });
  });

  it('lets [storage.packages] change the bucket and base path of packages only, inheriting the rest from [storage]', () => {
    const storage = storageFor(
      `${MINIO}MINIO_BASE_PATH = /prefix\n[storage.packages]\nMINIO_BUCKET = blobs\nMINIO_BASE_PATH = pkgs/\n`,
    );
    expect(storage.packages).toMatchObject({
      endpoint: 's3.example.test:9000',
      accessKeyId: 'key',
      bucket: 'blobs',
      basePath: 'pkgs/',
    });
    expect(storage.avatars).toMatchObject({ bucket: 'forge', basePath: 'prefix/avatars/' });
  });

  it('lets [packages] MINIO_BUCKET and MINIO_BASE_PATH override [storage]', () => {
    const storage = storageFor(`${MINIO}[packages]\nMINIO_BUCKET = packages-bucket\n`);
    expect(storage.packages).toMatchObject({
      bucket: 'packages-bucket',
      basePath: 'packages/',
      endpoint: 's3.example.test:9000',
    });
    expect(storage.avatars).toMatchObject({ bucket: 'forge' });
  });

  it('keeps avatars local while [storage.packages] alone says minio', () => {
    const storage = storageFor(
      '[storage.packages]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = s3:9000\nMINIO_BUCKET = pkgs\n',
    );
    expect(storage.packages).toMatchObject({
      type: 'minio',
      endpoint: 's3:9000',
      bucket: 'pkgs',
      basePath: 'packages/',
    });
    expect(storage.avatars).toEqual({ type: 'local', path: path.join(dataDir, 'avatars') });
  });

  it('reads a [packages] STORAGE_TYPE = minio from [packages] alone when no [storage.minio] exists', () => {
    const storage = storageFor(
      '[storage]\nMINIO_BUCKET = ignored\n[packages]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = s3:9000\nMINIO_BUCKET = own\n',
    );
    expect(storage.packages).toMatchObject({
      type: 'minio',
      endpoint: 's3:9000',
      bucket: 'own',
      basePath: 'packages/',
    });
    expect(storage.avatars).toMatchObject({ type: 'local' });
  });

  it('takes a [storage.<type>] section named by STORAGE_TYPE, before [storage]', () => {
    const ini =
      '[storage]\nMINIO_BUCKET = default-bucket\n[storage.minio]\nMINIO_BUCKET = typed-bucket\nMINIO_ENDPOINT = typed:9000\n[packages]\nSTORAGE_TYPE = minio\n';
    expect(storageFor(ini).packages).toMatchObject({
      type: 'minio',
      bucket: 'typed-bucket',
      endpoint: 'typed:9000',
      basePath: 'packages/',
    });
  });

  it('takes a custom section name as the type, its own STORAGE_TYPE saying which, and the subsystem keys over it', () => {
    const ini =
      '[storage.my_s3]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = mine:9000\n[picture]\nAVATAR_STORAGE_TYPE = my_s3\n[avatar]\nMINIO_BUCKET = avatar-bucket\n';
    const storage = storageFor(ini);
    expect(storage.avatars).toMatchObject({
      type: 'minio',
      endpoint: 'mine:9000',
      bucket: 'avatar-bucket',
      basePath: 'avatars/',
    });
    expect(storage.packages).toMatchObject({ type: 'local' });
  });

  it('as Forgejo, a [picture] AVATAR_STORAGE_TYPE without a [storage.<type>] section falls back to [storage]', () => {
    expect(storageFor('[picture]\nAVATAR_STORAGE_TYPE = minio\n').avatars).toEqual({
      type: 'local',
      path: path.join(dataDir, 'avatars'),
    });
  });

  it('reads the keys from ANVIL__storage_0x2E_packages__* variables over app.ini', () => {
    const storage = storageFor(MINIO, {
      ANVIL__storage_0x2E_packages__MINIO_BUCKET: 'from-env',
      ANVIL__storage__MINIO_USE_SSL: 'false',
    });
    expect(storage.packages).toMatchObject({ bucket: 'from-env', useSsl: false, endpoint: 's3.example.test:9000' });
  });
});

describe('refused storage settings', () => {
  it.each([
    ['[storage]\nSTORAGE_TYPE = azureblob\n', /\[storage\] STORAGE_TYPE: "azureblob"/],
    [
      '[packages]\nSTORAGE_TYPE = nowhere\n',
      /\[packages\] STORAGE_TYPE: "nowhere" is neither local, minio nor the name of a \[storage.nowhere\] section/,
    ],
    ['[packages]\nSTORAGE_TYPE = my\n[storage.my]\nSTORAGE_TYPE = ftp\n', /\[storage.my\] STORAGE_TYPE: "ftp"/],
    ['[storage]\nSTORAGE_TYPE = minio\nMINIO_USE_SSL = maybe\n', /MINIO_USE_SSL: "maybe" is not a boolean/],
    [
      '[storage]\nSTORAGE_TYPE = minio\nMINIO_ENDPOINT = https://s3.example.test\n',
      /MINIO_ENDPOINT: .* is not host\[:port\]/,
    ],
  ])('refuses %j naming the key', (ini, message) => {
    expect(() => storageFor(ini)).toThrow(ConfigError);
    expect(() => storageFor(ini)).toThrow(message);
  });
});
