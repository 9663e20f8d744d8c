// [queue] and [queue.<name>] as Forgejo reads them: which engine each job kind uses and how CONN_STR connects.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadSettings } from '../../src/config/settings.ts';
import { parseRedisConnStr, queueSettingsFor } from '../../src/config/queue.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-queue-settings-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Settings from an app.ini text and environment variables. */
function settingsWith(ini: string, env: Record<string, string> = {}) {
  fs.writeFileSync(path.join(dataDir, 'app.ini'), ini);
  return loadSettings({ ANVIL_DATA_DIR: dataDir, ...env });
}

describe('[queue] settings', () => {
  it("defaults to Forgejo's level queue, which is the database job table here", () => {
    const settings = settingsWith('');
    expect(settings.queue).toEqual({ TYPE: 'level', CONN_STR: '', QUEUE_NAME: '_queue', RELAY_SWEEP_INTERVAL: 5000 });
    expect(queueSettingsFor(settings, 'webhook_delivery')).toEqual({
      name: 'webhook_sender',
      backend: { type: 'database' },
    });
  });

  it.each(['level', 'channel', 'dummy', 'LEVEL'])("maps Forgejo's %s type to the database job table", (type) => {
    expect(queueSettingsFor(settingsWith(`[queue]\nTYPE = ${type}\n`), 'webhook_delivery').backend).toEqual({
      type: 'database',
    });
  });

  it('refuses a type Forgejo does not have', () => {
    expect(() => settingsWith('[queue]\nTYPE = rabbitmq\n')).toThrow(
      new ConfigError('[queue] TYPE: "rabbitmq" is not one of level, channel, dummy, redis'),
    );
  });

  it("puts jobs on Redis with TYPE=redis, at Forgejo's default CONN_STR when none is given", () => {
    expect(queueSettingsFor(settingsWith('[queue]\nTYPE = redis\n'), 'webhook_delivery')).toEqual({
      name: 'webhook_sender',
      backend: {
        type: 'redis',
        connection: { host: '127.0.0.1', port: 6379, db: 0 },
        queueName: 'webhook_sender_queue',
      },
    });
  });

  it('reads CONN_STR and QUEUE_NAME from [queue], and lets [queue.webhook_sender] override each key', () => {
    const common = settingsWith(
      '[queue]\nTYPE = redis\nCONN_STR = redis://:s3cret@redis.internal:6380/2\nQUEUE_NAME = _anvil\n',
    );
    expect(queueSettingsFor(common, 'webhook_delivery').backend).toEqual({
      type: 'redis',
      connection: { host: 'redis.internal', port: 6380, db: 2, password: 's3cret' },
      queueName: 'webhook_sender_anvil',
    });
    const own = settingsWith(
      '[queue]\nTYPE = level\n\n[queue.webhook_sender]\nTYPE = redis\nCONN_STR = redis://hooks:6379/1\n',
    );
    expect(queueSettingsFor(own, 'webhook_delivery').backend).toEqual({
      type: 'redis',
      connection: { host: 'hooks', port: 6379, db: 1 },
      queueName: 'webhook_sender_queue',
    });
    const back = settingsWith('[queue]\nTYPE = redis\n\n[queue.webhook_sender]\nTYPE = level\n');
    expect(queueSettingsFor(back, 'webhook_delivery').backend).toEqual({ type: 'database' });
  });

  it('takes the keys from the environment too (a dot in the section name is _0x2E_)', () => {
    const settings = settingsWith('', {
      ANVIL__queue_0x2E_webhook_sender__TYPE: 'redis',
      ANVIL__queue__CONN_STR: 'redis://127.0.0.1:7000/0',
    });
    expect(queueSettingsFor(settings, 'webhook_delivery').backend).toMatchObject({
      type: 'redis',
      connection: { port: 7000 },
    });
  });

  it('reads the sweep interval as a Go duration', () => {
    expect(settingsWith('[queue]\nRELAY_SWEEP_INTERVAL = 1m\n').queue.RELAY_SWEEP_INTERVAL).toBe(60_000);
    expect(() => settingsWith('[queue]\nRELAY_SWEEP_INTERVAL = often\n')).toThrow(ConfigError);
  });
});

describe('CONN_STR', () => {
  it('reads user, password, host, port and database index', () => {
    expect(parseRedisConnStr('redis://anvil:p%40ss@10.0.0.5:6390/3')).toEqual({
      username: 'anvil',
      password: 'p@ss',
      host: '10.0.0.5',
      port: 6390,
      db: 3,
    });
    expect(parseRedisConnStr('redis://[::1]:6379')).toEqual({ host: '::1', port: 6379, db: 0 });
    expect(parseRedisConnStr('redis://localhost?password=pw&db=4')).toEqual({
      host: 'localhost',
      port: 6379,
      password: 'pw',
      db: 4,
    });
  });

  it('connects with TLS for rediss:// and through a unix socket for redis+socket://', () => {
    expect(parseRedisConnStr('rediss://cache.example.com:6380/0')).toEqual({
      host: 'cache.example.com',
      port: 6380,
      db: 0,
      tls: { servername: 'cache.example.com' },
    });
    expect(parseRedisConnStr('redis+socket:///run/redis/redis.sock?db=5')).toEqual({
      path: '/run/redis/redis.sock',
      db: 5,
    });
  });

  it('refuses what BullMQ cannot use, naming the key', () => {
    expect(() => parseRedisConnStr('redis+cluster://a:6379,b:6379')).toThrow(
      /\[queue\] CONN_STR: "redis\+cluster:\/\/" is not supported/,
    );
    expect(() => parseRedisConnStr('addrs=127.0.0.1:6379 db=0')).toThrow(/is not a redis:\/\/ URL/);
    expect(() => parseRedisConnStr('redis://host/x')).toThrow(/database index "x" is not a number/);
    expect(() =>
      queueSettingsFor(settingsWith('[queue.webhook_sender]\nTYPE = redis\nCONN_STR = http://x\n'), 'webhook_delivery'),
    ).toThrow(/\[queue\.webhook_sender\] CONN_STR/);
  });
});
