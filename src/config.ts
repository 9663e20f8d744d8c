// Settings use Forgejo's app.ini section and key names. Sources, later wins: defaults, $ANVIL_DATA_DIR/app.ini,
// ANVIL__<section>__<KEY> environment variables (a dot in a section or key name is written _0x2E_, as in Forgejo).
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { parseGoDurationMs } from './domain/go-duration.ts';
import { resolveSubsystemStorage, type StorageSettings } from './storage/storage-settings.ts';

export { ConfigError };

interface Setting<T> {
  readonly defaultValue: T;
  parse(raw: string, key: string): T;
}

function str(defaultValue = ''): Setting<string> {
  return { defaultValue, parse: (raw) => raw };
}

function int(defaultValue: number, min = -Infinity): Setting<number> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = Number(raw.trim());
      if (!Number.isInteger(value) || value < min) throw new ConfigError(`${key}: "${raw}" is not an integer${min > -Infinity ? ` ≥ ${min}` : ''}`);
      return value;
    },
  };
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A byte count in git's notation: a number with an optional k, m or g suffix (binary multiples). */
function size(defaultValue: number): Setting<number> {
  return {
    defaultValue,
    parse(raw, key) {
      const match = /^(\d+)\s*([kmg]?)$/i.exec(raw.trim());
      if (!match) throw new ConfigError(`${key}: "${raw}" is not a size (a number of bytes, optionally with k, m or g)`);
      return Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()];
    },
  };
}

/** A size bound as Forgejo's LIMIT_SIZE_* keys take it: -1 for none, else a size in git's notation. */
function sizeLimit(defaultValue = -1): Setting<number> {
  return {
    defaultValue,
    parse: (raw, key) => (raw.trim() === '-1' ? -1 : size(defaultValue).parse(raw, key)),
  };
}

function bool(defaultValue: boolean): Setting<boolean> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = raw.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(value)) return true;
      if (['false', '0', 'no', 'off', ''].includes(value)) return false;
      throw new ConfigError(`${key}: "${raw}" is not a boolean`);
    },
  };
}

/** Comma-separated list; lower-cased, blanks dropped. */
function list(defaultValue: string[] = []): Setting<string[]> {
  return {
    defaultValue,
    parse: (raw) =>
      raw
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter(Boolean),
  };
}

/** A Go duration ("5s", "1m30s", "250ms"), kept in milliseconds. */
function duration(defaultText: string, minMs = 0): Setting<number> {
  return {
    defaultValue: parseGoDurationMs(defaultText)!,
    parse(raw, key) {
      const value = parseGoDurationMs(raw.trim());
      if (value === null || value < minMs) throw new ConfigError(`${key}: "${raw}" is not a duration${minMs > 0 ? ` of at least ${minMs} ms` : ''} (e.g. 5s, 1m)`);
      return value;
    },
  };
}

function oneOf<T extends string>(defaultValue: T, values: readonly T[]): Setting<T> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = raw.trim().toLowerCase() as T;
      if (!values.includes(value)) throw new ConfigError(`${key}: "${raw}" is not one of ${values.join(', ')}`);
      return value;
    },
  };
}

function listOf<T extends string>(defaultValue: T[], values: readonly T[]): Setting<T[]> {
  return {
    defaultValue,
    parse(raw, key) {
      const items = list().parse(raw, key).filter((item) => item !== 'off') as T[];
      const bad = items.find((item) => !values.includes(item));
      if (bad) throw new ConfigError(`${key}: "${bad}" is not one of ${values.join(', ')}`);
      return items;
    },
  };
}

const QUEUE_TYPES = ['level', 'channel', 'dummy', 'redis'] as const;

const SCHEMA = {
  server: {
    HTTP_ADDR: str('0.0.0.0'),
    HTTP_PORT: int(3000, 0),
    ROOT_URL: str(''),
    APP_DATA_PATH: str('data'),
    DISABLE_SSH: bool(true),
    // Anvil's own (Go's http.Server names): the largest header block, and how long a client may take to send
    // its headers and its whole request; 0 for no bound. Forgejo's: how long a shutdown waits for requests.
    MAX_HEADER_SIZE: size(16 * 1024),
    READ_HEADER_TIMEOUT: duration('60s'),
    READ_TIMEOUT: duration('5m'),
    GRACEFUL_HAMMER_TIME: duration('60s', -Infinity),
  },
  database: {
    // postgresql://… selects PostgreSQL; empty means SQLite at $APP_DATA_PATH/anvil.db
    URL: str(''),
    SQLITE_PATH: str(''),
  },
  log: {
    LEVEL: oneOf('info', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const),
  },
  service: {
    REQUIRE_SIGNIN_VIEW: bool(false),
    EMAIL_DOMAIN_ALLOWLIST: list(),
    EMAIL_DOMAIN_BLOCKLIST: list(),
    DEFAULT_ORG_MEMBER_VISIBLE: bool(false),
    DEFAULT_USER_VISIBILITY: oneOf('public', ['public', 'limited', 'private'] as const),
    DEFAULT_ALLOW_CREATE_ORGANIZATION: bool(true),
    NO_REPLY_ADDRESS: str('noreply.localhost'),
    DISABLE_REGISTRATION: bool(false),
  },
  admin: {
    DISABLE_REGULAR_ORG_CREATION: bool(false),
  },
  security: {
    MIN_PASSWORD_LENGTH: int(8, 1),
    PASSWORD_COMPLEXITY: listOf<'lower' | 'upper' | 'digit' | 'spec'>([], ['lower', 'upper', 'digit', 'spec']),
    PASSWORD_CHECK_PWN: bool(false),
    // argon2$<time>$<memory KiB>$<threads>$<key length>, Forgejo's notation
    PASSWORD_HASH_ALGO: str('argon2$2$19456$1$32'),
    // Anvil's own: argon2 computations at once, and the back-off after failed password sign-ins
    PASSWORD_HASH_CONCURRENCY: int(2, 1),
    PASSWORD_FAILURES_PER_ADDRESS: int(20, 0),
    PASSWORD_FAILURES_PER_ACCOUNT: int(10, 0),
    PASSWORD_FAILURE_WINDOW_SECONDS: int(300, 1),
    SECRET_KEY: str(''),
    DISABLE_WEBHOOKS: bool(false),
    DISABLE_QUERY_AUTH_TOKEN: bool(false),
    IMPORT_LOCAL_PATHS: bool(false),
  },
  api: {
    ENABLE_SWAGGER: bool(true),
    DEFAULT_PAGING_NUM: int(30, 1),
    MAX_RESPONSE_ITEMS: int(50, 1),
  },
  ui: {
    ISSUE_PAGING_NUM: int(20, 1),
  },
  repository: {
    ROOT: str(''),
    DEFAULT_BRANCH: str('main'),
    MAX_CREATION_LIMIT: int(-1),
    FORCE_PRIVATE: bool(false),
    PREFERRED_LICENSES: list(['apache-2.0', 'mit']),
    DISABLE_MIGRATIONS: bool(false),
  },
  git: {
    // Largest upload-pack request (after gzip inflation) and receive-pack command list, as git http-backend's
    // GIT_HTTP_MAX_REQUEST_BUFFER.
    HTTP_MAX_REQUEST_BUFFER: size(10 * 1024 ** 2),
    // Anonymous clones and fetches served at once; 0 for no bound.
    MAX_ANONYMOUS_CLONES: int(8, 0),
  },
  // Forgejo passes this section to git as configuration; Anvil reads the keys it applies.
  'git.config': {
    // Largest pack a push may send; 0 for no bound.
    'RECEIVE.MAXINPUTSIZE': size(2 * 1024 ** 3),
  },
  migrations: {
    ALLOW_LOCALNETWORKS: bool(false),
  },
  // Package blobs: where they live (settings.storage.packages; PATH is the local folder) and the largest generic upload.
  packages: {
    STORAGE_TYPE: str(''),
    PATH: str(''),
    LIMIT_SIZE_GENERIC: sizeLimit(),
  },
  // Uploaded avatars larger than this are refused before they are decoded.
  picture: {
    AVATAR_MAX_WIDTH: int(4096, 1),
    AVATAR_MAX_HEIGHT: int(4096, 1),
    AVATAR_MAX_FILE_SIZE: int(1048576, 1),
  },
  // Anvil's own: how long rendering one markup document may take (waiting for a render thread included), and how
  // many render threads run at most (0: as many as there are cores, at most 2).
  markup: {
    RENDER_TIMEOUT: duration('5s', 1),
    RENDER_THREADS: int(0, 0),
  },
  ssh: {
    MINIMUM_KEY_SIZE_CHECK: bool(true),
  },
  // Smallest accepted public keys in bits, Forgejo's defaults; 0 or less accepts any size.
  'ssh.minimum_key_sizes': {
    ED25519: int(256),
    ECDSA: int(256),
    RSA: int(3071),
  },
  mirror: {
    ENABLED: bool(true),
    DISABLE_NEW_PULL: bool(false),
    DEFAULT_INTERVAL: str('8h'),
    MIN_INTERVAL: str('10m'),
  },
  mailer: {
    ENABLED: bool(false),
    SMTP_ADDR: str(''),
    SMTP_PORT: int(25, 1),
    FROM: str('anvil@localhost'),
    USER: str(''),
    PASSWD: str(''),
  },
  quota: {
    ENABLED: bool(true),
    DEFAULT_GROUPS: list(),
  },
  'quota.default': {
    TOTAL: int(-1),
  },
  federation: {
    ENABLED: bool(true),
    SHARE_USER_STATISTICS: bool(true),
    // Forgejo's: the largest document fetched from another server, in MiB
    MAX_SIZE: int(4, 1),
    // Anvil's own: hosts actor keys may be fetched from ([webhook] ALLOWED_HOST_LIST's vocabulary), and the deadline
    // of one fetch, redirects included
    ALLOWED_HOST_LIST: str('external'),
    FETCH_TIMEOUT: duration('10s', 1),
  },
  cron: {
    ENABLED: bool(true),
  },
  webhook: {
    DELIVER_TIMEOUT: int(5, 1),
    // Forgejo's vocabulary: external, private, loopback, *, CIDRs and host globs, comma-separated
    ALLOWED_HOST_LIST: str('external'),
    SKIP_TLS_VERIFY: bool(false),
    PAYLOAD_COMMIT_LIMIT: int(15, 1),
    // Anvil's own: retries of a delivery that met a network error or a 5xx answer
    MAX_ATTEMPTS: int(5, 1),
    RETRY_BACKOFF: duration('5s', 1),
    // how often a process looks for due deliveries, how many it sends at once, and how long it holds one
    QUEUE_POLL_INTERVAL: duration('1s', 10),
    DELIVERY_CONCURRENCY: int(4, 1),
    DELIVERY_LEASE: duration('1m', 1000),
  },
  // Background jobs (Forgejo's [queue]): level (Forgejo's default), channel and dummy keep them in the database job
  // table; redis moves them to BullMQ on the Redis at CONN_STR. [queue.<name>] overrides per queue; empty inherits.
  queue: {
    TYPE: oneOf('level', QUEUE_TYPES),
    CONN_STR: str(''),
    QUEUE_NAME: str('_queue'),
    // Anvil's own: how often each process moves job rows that did not reach Redis yet (it was down)
    RELAY_SWEEP_INTERVAL: duration('5s', 10),
  },
  'queue.webhook_sender': {
    TYPE: oneOf('', ['', ...QUEUE_TYPES]),
    CONN_STR: str(''),
    QUEUE_NAME: str(''),
  },
  'cron.cleanup_hook_task_table': {
    CLEANUP_TYPE: oneOf('perwebhook', ['olderthan', 'perwebhook'] as const),
    OLDER_THAN: duration('168h'),
    NUMBER_TO_KEEP: int(10, 0),
  },
} as const;

type Schema = typeof SCHEMA;
export type Settings = {
  readonly [S in keyof Schema]: { readonly [K in keyof Schema[S]]: Schema[S][K] extends Setting<infer T> ? T : never };
} & {
  /** Where each subsystem keeps its files: [storage], [storage.<name>] and the subsystem's own keys. */
  readonly storage: { readonly packages: StorageSettings; readonly avatars: StorageSettings };
};

/** Parses app.ini text: `[section]` headers, `KEY = value` lines, `;`/`#` comments, optional quotes. */
export function parseIni(text: string): Map<string, Map<string, string>> {
  const sections = new Map<string, Map<string, string>>([['', new Map()]]);
  let current = sections.get('')!;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      const name = header[1].trim();
      if (!sections.has(name)) sections.set(name, new Map());
      current = sections.get(name)!;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) throw new ConfigError(`app.ini: cannot read line "${line}"`);
    let value = line.slice(eq + 1).trim();
    if (/^(["'`]).*\1$/.test(value)) value = value.slice(1, -1);
    current.set(line.slice(0, eq).trim().toUpperCase(), value);
  }
  return sections;
}

/** Raw values from the environment: ANVIL__<section>__<KEY>, plus the conventional short names. */
function environmentValues(env: NodeJS.ProcessEnv): Map<string, Map<string, string>> {
  const values = new Map<string, Map<string, string>>();
  const put = (section: string, key: string, value: string) => {
    if (!values.has(section)) values.set(section, new Map());
    values.get(section)!.set(key.toUpperCase(), value);
  };
  for (const [name, value] of Object.entries(env)) {
    const match = /^ANVIL__(.+?)__(.+)$/.exec(name);
    if (match && value !== undefined) put(match[1].replace(/_0x2E_/gi, '.').toLowerCase(), match[2].replace(/_0x2E_/gi, '.'), value);
  }
  if (env.PORT) put('server', 'HTTP_PORT', env.PORT);
  if (env.ANVIL_ROOT_URL) put('server', 'ROOT_URL', env.ANVIL_ROOT_URL);
  if (env.DATABASE_URL) put('database', 'URL', env.DATABASE_URL);
  return values;
}

/** The raw values of both sources, the second winning key by key. */
function mergeSections(base: Map<string, Map<string, string>>, over: Map<string, Map<string, string>>): Map<string, Map<string, string>> {
  const merged = new Map<string, Map<string, string>>();
  for (const name of new Set([...base.keys(), ...over.keys()])) merged.set(name, new Map([...(base.get(name) ?? []), ...(over.get(name) ?? [])]));
  return merged;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const dataDir = path.resolve(env.ANVIL_DATA_DIR ?? 'data');
  const iniFile = path.join(dataDir, 'app.ini');
  const fromFile = fs.existsSync(iniFile) ? parseIni(fs.readFileSync(iniFile, 'utf8')) : new Map<string, Map<string, string>>();
  const fromEnv = environmentValues(env);

  const settings: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(SCHEMA)) {
    settings[section] = {};
    for (const [key, setting] of Object.entries<Setting<unknown>>(keys)) {
      const raw = fromEnv.get(section)?.get(key) ?? fromFile.get(section)?.get(key);
      settings[section][key] = raw === undefined ? setting.defaultValue : setting.parse(raw, `[${section}] ${key}`);
    }
  }
  const server = settings.server;
  server.APP_DATA_PATH = dataDir;
  if (!server.ROOT_URL) server.ROOT_URL = `http://localhost:${server.HTTP_PORT}/`;
  if (!String(server.ROOT_URL).endsWith('/')) server.ROOT_URL += '/';
  if (!/^https?:\/\//.test(String(server.ROOT_URL))) throw new ConfigError(`[server] ROOT_URL: "${server.ROOT_URL}" is not an http(s) URL`);
  if (!settings.repository.ROOT) settings.repository.ROOT = path.join(dataDir, 'repositories');
  const storage = resolveSubsystemStorage(mergeSections(fromFile, fromEnv), dataDir);
  (settings as Record<string, unknown>).storage = storage;
  settings.packages.PATH = storage.packages.type === 'local' ? storage.packages.path : path.join(dataDir, 'packages');
  if (!settings.database.SQLITE_PATH) settings.database.SQLITE_PATH = path.join(dataDir, 'anvil.db');
  const url = String(settings.database.URL);
  if (url && !/^postgres(ql)?:\/\//.test(url)) throw new ConfigError(`[database] URL: only postgresql:// URLs are supported`);
  return settings as Settings;
}
