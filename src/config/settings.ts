// Settings use Forgejo's app.ini section and key names, one file per section under sections/ (Gitea's
// modules/setting/<section>.go habit). Sources, later wins: defaults, $ANVIL_DATA_DIR/app.ini,
// ANVIL__<section>__<KEY> environment variables (a dot in a section or key name is written _0x2E_, as in Forgejo).
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import type { Setting } from './setting-types.ts';
import { environmentValues, mergeSections, parseIni } from './sources.ts';
import { resolveSubsystemStorage, type SubsystemStorage } from './storage.ts';
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
import { queue, queueWebhookSender } from './sections/queue.ts';

export { ConfigError };

const SCHEMA = {
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
  'cron.cleanup_hook_task_table': cronCleanupHookTaskTable,
} as const;

type Schema = typeof SCHEMA;
export type Settings = {
  readonly [S in keyof Schema]: { readonly [K in keyof Schema[S]]: Schema[S][K] extends Setting<infer T> ? T : never };
} & {
  /** Where each subsystem keeps its files: [storage], [storage.<name>] and the subsystem's own keys. */
  readonly storage: SubsystemStorage;
};

export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const dataDir = path.resolve(env.ANVIL_DATA_DIR ?? 'data');
  const iniFile = path.join(dataDir, 'app.ini');
  const fromFile = fs.existsSync(iniFile)
    ? parseIni(fs.readFileSync(iniFile, 'utf8'))
    : new Map<string, Map<string, string>>();
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
  if (!/^https?:\/\//.test(String(server.ROOT_URL)))
    throw new ConfigError(`[server] ROOT_URL: "${server.ROOT_URL}" is not an http(s) URL`);
  if (!settings.repository.ROOT) settings.repository.ROOT = path.join(dataDir, 'repositories');
  const storage = resolveSubsystemStorage(mergeSections(fromFile, fromEnv), dataDir);
  (settings as Record<string, unknown>).storage = storage;
  settings.packages.PATH = storage.packages.type === 'local' ? storage.packages.path : path.join(dataDir, 'packages');
  if (!settings.database.SQLITE_PATH) settings.database.SQLITE_PATH = path.join(dataDir, 'anvil.db');
  const url = String(settings.database.URL);
  if (url && !/^postgres(ql)?:\/\//.test(url))
    throw new ConfigError(`[database] URL: only postgresql:// URLs are supported`);
  return settings as Settings;
}
