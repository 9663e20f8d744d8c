// Settings use Forgejo's app.ini section and key names, one file per section under sections/ (Gitea's
// modules/setting/<section>.go habit). Sources, later wins: defaults, app.ini (sources.ts says which file),
// FORGEJO__/GITEA__/ANVIL__<section>__<KEY> environment variables (a dot in a name is written _0X2E_).
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import type { Setting } from './setting-types.ts';
import { configFile, environmentValues, mergeSections, readConfigFile, type RawSections } from './sources.ts';
import { resolveSubsystemStorage, STORAGE_KEYS, type SubsystemStorage } from './storage.ts';
import { resolveDatabase } from './database-url.ts';
import { root } from './sections/root.ts';
import { metrics } from './sections/metrics.ts';
import { server } from './sections/server.ts';
import { database } from './sections/database.ts';
import { log } from './sections/log.ts';
import { service } from './sections/service.ts';
import { admin } from './sections/admin.ts';
import { security } from './sections/security.ts';
import { api } from './sections/api.ts';
import { ui } from './sections/ui.ts';
import { repository } from './sections/repository.ts';
import { git, gitConfig } from './sections/git.ts';
import { migrations } from './sections/migrations.ts';
import { packages } from './sections/packages.ts';
import { picture } from './sections/picture.ts';
import { markup } from './sections/markup.ts';
import { ssh, sshMinimumKeySizes } from './sections/ssh.ts';
import { mirror } from './sections/mirror.ts';
import { mailer } from './sections/mailer.ts';
import { quota, quotaDefault } from './sections/quota.ts';
import { federation } from './sections/federation.ts';
import { cron, cronCleanupHookTaskTable } from './sections/cron.ts';
import { webhook } from './sections/webhook.ts';
import { queue, queuePackageIndex, queueWebhookSender } from './sections/queue.ts';

export { ConfigError };

export const SCHEMA = {
  '': root,
  server,
  database,
  log,
  service,
  admin,
  security,
  api,
  ui,
  repository,
  git,
  'git.config': gitConfig,
  migrations,
  packages,
  picture,
  markup,
  ssh,
  'ssh.minimum_key_sizes': sshMinimumKeySizes,
  mirror,
  mailer,
  quota,
  'quota.default': quotaDefault,
  federation,
  cron,
  webhook,
  queue,
  'queue.webhook_sender': queueWebhookSender,
  'queue.package_index': queuePackageIndex,
  'cron.cleanup_hook_task_table': cronCleanupHookTaskTable,
  metrics,
} as const;

type Schema = typeof SCHEMA;
export type Settings = {
  readonly [S in keyof Schema]: { readonly [K in keyof Schema[S]]: Schema[S][K] extends Setting<infer T> ? T : never };
} & {
  /** Where each subsystem keeps its files: [storage], [storage.<name>] and the subsystem's own keys. */
  readonly storage: SubsystemStorage;
  /** The app.ini read (or looked for). */
  readonly configFile: string;
  /** Values given that Anvil does not read, `[section] KEY`, for one warning at start. */
  readonly unknownKeys: readonly string[];
};

export interface LoadOptions {
  /** `--config`/`-c` of the command line; before ANVIL_CONFIG and $ANVIL_DATA_DIR/app.ini. */
  readonly configFile?: string;
}

/** Sections Anvil reads itself outside SCHEMA: the storage ones (storage.ts). */
function isStorageSection(name: string): boolean {
  return name === 'storage' || name.startsWith('storage.') || name === 'avatar' || name === 'attachment';
}

/** `[section] KEY` of every value given that Anvil does not read, to be warned about once. */
function unknownKeys(given: RawSections): string[] {
  const unknown: string[] = [];
  for (const [section, keys] of given) {
    const known: Record<string, unknown> | undefined = isStorageSection(section)
      ? STORAGE_KEYS
      : (SCHEMA as Record<string, Record<string, unknown>>)[section];
    if (!known) {
      if (keys.size > 0 || section) unknown.push(`[${section}]`);
      continue;
    }
    for (const key of keys.keys()) if (!(key in known)) unknown.push(`[${section}] ${key}`);
  }
  return unknown;
}

/**
 * Every setting, validated: a value that cannot be read throws a ConfigError naming its section, key and value,
 * before anything is opened or written.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Settings {
  const dataDir = path.resolve(env.ANVIL_DATA_DIR ?? 'data');
  const { file, required } = configFile(env, dataDir, options.configFile);
  const fromFile = readConfigFile(file, required);
  const fromEnv = environmentValues(env);
  const given = mergeSections(fromFile, fromEnv);

  const settings: Record<string, Record<string, unknown>> = {};
  for (const [section, keys] of Object.entries(SCHEMA)) {
    settings[section] = {};
    for (const [key, setting] of Object.entries<Setting<unknown>>(keys)) {
      const raw = given.get(section)?.get(key);
      settings[section][key] = raw === undefined ? setting.defaultValue : setting.parse(raw, `[${section}] ${key}`);
    }
  }
  const server = settings.server;
  server.APP_DATA_PATH = dataDir;
  if (!server.ROOT_URL)
    server.ROOT_URL = `${server.PROTOCOL === 'https' ? 'https' : 'http'}://${server.DOMAIN}:${server.HTTP_PORT}/`;
  if (!String(server.ROOT_URL).endsWith('/')) server.ROOT_URL += '/';
  if (!/^https?:\/\//.test(String(server.ROOT_URL)))
    throw new ConfigError(`[server] ROOT_URL: "${server.ROOT_URL}" is not an http(s) URL`);
  if (server.PROTOCOL === 'https' && (!server.CERT_FILE || !server.KEY_FILE))
    throw new ConfigError(`[server] PROTOCOL: "https" needs CERT_FILE and KEY_FILE`);
  if (server.PROTOCOL === 'http+unix' && !String(server.HTTP_ADDR).startsWith('/'))
    throw new ConfigError(`[server] HTTP_ADDR: "${server.HTTP_ADDR}" is not a socket path, which http+unix needs`);
  for (const key of ['CERT_FILE', 'KEY_FILE'] as const)
    if (server[key]) server[key] = path.resolve(dataDir, String(server[key]));
  if (!settings.repository.ROOT) settings.repository.ROOT = path.join(dataDir, 'repositories');
  const storage = resolveSubsystemStorage(given, dataDir);
  (settings as Record<string, unknown>).storage = storage;
  settings.packages.PATH = storage.packages.type === 'local' ? storage.packages.path : path.join(dataDir, 'packages');
  resolveDatabase(settings.database as unknown as Parameters<typeof resolveDatabase>[0], dataDir);
  (settings as Record<string, unknown>).configFile = file;
  (settings as Record<string, unknown>).unknownKeys = unknownKeys(given);
  return settings as unknown as Settings;
}
