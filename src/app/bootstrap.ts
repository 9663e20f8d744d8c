// Builds the application context from settings: database migrated and opened, services wired.
import type Redis from 'ioredis';
import type { AppContext } from './app-context.ts';
import { passwordHasher } from '../auth/password.ts';
import { signInThrottle } from '../auth/sign-in-throttle.ts';
import { sharedRedisConnection } from '../config/queue.ts';
import { sharedRedis } from '../infra/redis/shared-redis.ts';
import { changeChannel } from '../infra/redis/change-channel.ts';
import { cachedHotQueries } from '../db/cached-hot-queries.ts';
import type { ClearedOnWrite } from '../db/cleared-on-write.ts';
import { LOOKUP_TTL_MS, LookupCache } from '../db/lookup-cache.ts';
import { invalidatingLookups } from '../db/lookup-invalidation.ts';
import { RepositoryLookupCache } from '../db/repository-lookup-cache.ts';
import type { Settings } from '../config/settings.ts';
import { AtRestCipher } from '../crypto/at-rest-cipher.ts';
import { loadAtRestKey } from '../crypto/at-rest-key.ts';
import { type Database, databaseTarget, openDatabase } from '../infra/database/database.ts';
import { migrateDatabase } from '../infra/database/migrate.ts';
import { createLogger, type Logger } from '../infra/observability/logger.ts';
import { keepNewFilesPrivate, makePrivateDirectory } from '../infra/private-files.ts';
import { CommittedJobs } from '../infra/queue/committed-jobs.ts';
import { createRepositories, transactions } from '../db/repositories.ts';
import { hookPayloadRenderer } from '../convert/hook-payload.ts';
import { createJobQueue } from '../infra/queue/create-job-queue.ts';
import { createServices } from './create-services.ts';
import { createBlobStore } from '../infra/storage/create-blob-store.ts';
import { createStores } from '../infra/storage/stores.ts';

export async function bootstrap(
  settings: Settings,
  log: Logger = createLogger(settings.log.LEVEL),
): Promise<AppContext> {
  keepNewFilesPrivate();
  makePrivateDirectory(settings.server.APP_DATA_PATH);
  makePrivateDirectory(settings.repository.ROOT);
  const target = databaseTarget(settings);
  const applied = await migrateDatabase(target);
  if (applied.length > 0) log.info({ applied }, 'database migrated');
  const shared = sharedRedisConnection(settings);
  const redis = shared ? sharedRedis(shared, log) : null;
  const lookups = sharedAcross(redis, 'anvil:lookups-changed', (ttl) => new LookupCache(ttl), log);
  const repositoryLookups = sharedAcross(
    redis,
    'anvil:repository-lookups-changed',
    (ttl) => new RepositoryLookupCache(ttl),
    log,
  );
  const opened = openDatabase(target);
  const db: Database = {
    ...opened,
    prisma: invalidatingLookups(opened.prisma, lookups, repositoryLookups),
    hot: cachedHotQueries(opened.hot, lookups, repositoryLookups),
  };
  const passwords = passwordHasher(settings.security.PASSWORD_HASH_ALGO, {
    concurrency: settings.security.PASSWORD_HASH_CONCURRENCY,
  });
  const { key, source } = loadAtRestKey(settings.security.SECRET_KEY, settings.server.APP_DATA_PATH);
  if (source.kind === 'file' && source.created)
    log.warn(
      { file: source.file },
      'generated the key stored credentials are encrypted under; back it up, or set [security] SECRET_KEY',
    );
  const cipher = new AtRestCipher(key);
  const committedJobs = new CommittedJobs();
  const repos = createRepositories(db.prisma, db.provider, cipher, db.hot, () => committedJobs.notify());
  const deps = {
    settings,
    repos,
    transactions: transactions(db.prisma, db.provider, cipher, db.hot, committedJobs, [lookups, repositoryLookups]),
    stores: createStores(settings),
    packageBlobs: createBlobStore(settings.storage.packages),
    attachmentBlobs: createBlobStore(settings.storage.attachments),
    hookPayloads: hookPayloadRenderer({
      rootUrl: settings.server.ROOT_URL,
      noReplyAddress: settings.service.NO_REPLY_ADDRESS,
    }),
    jobQueue: createJobQueue(settings, repos.jobs, committedJobs, log),
    log,
    passwords,
  };
  const throttle = signInThrottle({
    perAddress: settings.security.PASSWORD_FAILURES_PER_ADDRESS,
    perAccount: settings.security.PASSWORD_FAILURES_PER_ACCOUNT,
    windowSeconds: settings.security.PASSWORD_FAILURE_WINDOW_SECONDS,
    redis,
  });
  return { ...deps, db, services: createServices(deps), signInThrottle: throttle, sharedRedis: redis };
}

/** A lookup cache; with a shared Redis, every process hears of every change to it at once. */
function sharedAcross<Cache extends ClearedOnWrite>(
  redis: Redis | null,
  channelName: string,
  create: (ttlMs: number) => Cache,
  log: Logger,
): Cache {
  if (!redis) return create(LOOKUP_TTL_MS.alone);
  const cache = create(LOOKUP_TTL_MS.shared);
  const channel = changeChannel(redis, channelName, () => cache.clear(), log);
  cache.broadcastTo(() => channel.publish());
  return cache;
}
