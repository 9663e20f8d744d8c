// Drives Prisma's WebAssembly schema engine through driver adapters, so migrations need no native engine binary.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import type { SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm';
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import type { DatabaseTarget } from '../src/infra/database/target.ts';

export type { SchemaEngine } from '@prisma/schema-engine-wasm';
type EngineModule = typeof import('@prisma/schema-engine-wasm/schema_engine_bg');

export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

// The project's lib settings (ES2022, no DOM) do not declare WebAssembly; Node has it.
declare const WebAssembly: {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: Record<string, unknown> } }>;
};

let loaded: Promise<EngineModule> | undefined;
let lastPanic: string | undefined;

// A second instantiation under the same glue corrupts its memory views, so the module is loaded once per process.
export function loadSchemaEngineModule(): Promise<EngineModule> {
  loaded ??= instantiate().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function instantiate(): Promise<EngineModule> {
  installPanicRegistry();
  const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
  const glue = loadGlue(gluePath);
  const bytes = await fs.promises.readFile(path.join(path.dirname(gluePath), 'schema_engine_bg.wasm'));

  const imports: Record<string, unknown> = { ...glue };
  for (const [name, original] of Object.entries(glue)) {
    // The engine arms timers (e.g. a 10 s lock timeout) and never clears them; unref'd they cannot keep Node alive.
    if (name.startsWith('__wbg_setTimeout_') && typeof original === 'function') {
      imports[name] = (...args: unknown[]) => {
        const timer = (original as (...a: unknown[]) => unknown)(...args);
        (timer as NodeJS.Timeout | undefined)?.unref?.();
        return timer;
      };
    }
  }
  const { instance } = await WebAssembly.instantiate(bytes, { './schema_engine_bg.js': imports });
  const exports = instance.exports;
  glue.__wbg_set_wasm(exports);
  (exports.__wbindgen_start as (() => void) | undefined)?.();
  return glue;
}

// The glue is an ES module. Node 20.19+ requires it directly; jest's require refuses ES modules (and replaces
// `module` and process.getBuiltinModule), so there it is compiled to CommonJS with swc and evaluated.
function loadGlue(file: string): EngineModule {
  try {
    return require(file) as EngineModule;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
  }
  const { transformSync } = require('@swc/core') as typeof import('@swc/core');
  const { code } = transformSync(fs.readFileSync(file, 'utf8'), {
    filename: file,
    jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  const module = { exports: {} as EngineModule };
  new Function('exports', 'module', code)(module.exports, module);
  return module.exports;
}

// The glue reports a Rust panic through this global right before the call fails with a bare "unreachable".
function installPanicRegistry(): void {
  const holder = globalThis as { PRISMA_WASM_PANIC_REGISTRY?: { set_message(message: string): void } };
  const previous = holder.PRISMA_WASM_PANIC_REGISTRY;
  holder.PRISMA_WASM_PANIC_REGISTRY = {
    set_message(message: string) {
      lastPanic = message;
      previous?.set_message(message);
    },
  };
}

// Runs fn with an engine connected to target; the engine is freed and every adapter disposed whatever happens.
export async function withSchemaEngine<T>(
  target: DatabaseTarget,
  schemaText: string | undefined,
  fn: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const glue = await loadSchemaEngineModule();
  const adapters = target.provider === 'sqlite' ? sqliteAdapters(target.file) : postgresAdapters(target.url);
  // The engine's own tracing (JSON lines); off unless asked for.
  const log = (line: string) => {
    if (process.env.ANVIL_SCHEMA_ENGINE_LOG) process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  };
  let engine: SchemaEngine | undefined;
  try {
    const datamodels: [string, string][] | undefined =
      schemaText === undefined ? undefined : [['schema.prisma', schemaText]];
    lastPanic = undefined;
    engine = await glue.SchemaEngine.new({ datamodels }, log, bindMigrationAwareSqlAdapterFactory(adapters.factory));
    return await fn(engine);
  } catch (error) {
    throw describeEngineError(error);
  } finally {
    engine?.free();
    await adapters.disposeAll();
  }
}

function describeEngineError(error: unknown): unknown {
  if (lastPanic !== undefined) {
    const panic = new Error(`schema engine panicked: ${lastPanic}`, { cause: error });
    lastPanic = undefined;
    return panic;
  }
  // Engine errors are Errors whose message ends in a Rust span trace; anything else is made an Error here.
  if (error instanceof Error) return error;
  if (error && typeof error === 'object' && 'message' in error)
    return new Error(String(error.message), { cause: error });
  return new Error(String(error));
}

type AdapterSet = { factory: SqlMigrationAwareDriverAdapterFactory; disposeAll(): Promise<void> };

// Tracks adapters so they can be disposed after the engine is freed; dispose runs at most once per adapter.
function tracker() {
  const open = new Set<() => Promise<void>>();
  return {
    track<A extends SqlDriverAdapter>(adapter: A, cleanup: () => Promise<void> = () => Promise.resolve()): A {
      const original = adapter.dispose.bind(adapter);
      let done: Promise<void> | undefined;
      const dispose = () => {
        done ??= (async () => {
          open.delete(dispose);
          try {
            await original();
          } finally {
            await cleanup();
          }
        })();
        return done;
      };
      adapter.dispose = dispose;
      open.add(dispose);
      return adapter;
    },
    async disposeAll() {
      const results = await Promise.allSettled([...open].map((dispose) => dispose()));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}

function sqliteAdapters(file: string): AdapterSet {
  const adapters = tracker();
  const open = async (url: string) => {
    const adapter = await new PrismaBetterSqlite3({ url }).connect();
    // The engine sends whole migration scripts through executeRaw, which better-sqlite3 refuses beyond one statement.
    const routeScripts = (queryable: { executeRaw(q: SqlQuery): Promise<number> }) => {
      const executeRaw = queryable.executeRaw.bind(queryable);
      queryable.executeRaw = async (query) => {
        if (query.args.length > 0) return executeRaw(query);
        await adapter.executeScript(query.sql);
        return 0;
      };
    };
    routeScripts(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = await startTransaction(isolationLevel);
      routeScripts(tx); // same connection as the adapter, so its executeScript is right here too
      return tx;
    };
    return adapters.track(adapter);
  };
  return {
    factory: {
      provider: 'sqlite',
      adapterName: '@prisma/adapter-better-sqlite3',
      connect: () => open(`file:${file}`),
      connectToShadowDb: () => open(':memory:'),
    },
    disposeAll: () => adapters.disposeAll(),
  };
}

function postgresAdapters(url: string): AdapterSet {
  const adapters = tracker();
  const config = parseIntoClientConfig(url);
  const schema = new URL(url).searchParams.get('schema') ?? undefined;
  const open = async (poolConfig: pg.PoolConfig, cleanup?: () => Promise<void>) => {
    const adapter = await new PrismaPg(poolConfig, { schema }).connect();
    patchCharColumns(adapter);
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => {
      const tx = await startTransaction(isolationLevel);
      patchCharColumns(tx);
      return tx;
    };
    return adapters.track(adapter, cleanup);
  };
  return {
    factory: {
      provider: 'postgres',
      adapterName: '@prisma/adapter-pg',
      connect: () => open(config),
      // adapter-pg's own shadow database would run on the main database when given a URL; this one is separate.
      async connectToShadowDb() {
        const database = `prisma_shadow_${randomUUID().replace(/-/g, '')}`;
        await withClient(config, (client) => client.query(`CREATE DATABASE "${database}"`));
        try {
          return await open({ ...config, database }, () => dropDatabase(config, database));
        } catch (error) {
          await dropDatabase(config, database);
          throw error;
        }
      },
    },
    disposeAll: () => adapters.disposeAll(),
  };
}

async function withClient<T>(config: pg.ClientConfig, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(config: pg.ClientConfig, database: string): Promise<void> {
  await withClient(config, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

// The engine's catalog queries return `"char"` columns, which adapter-pg cannot map; they read fine as text.
function patchCharColumns(queryable: SqlDriverAdapter | Transaction): void {
  const target = queryable as unknown as { performIO(query: SqlQuery): Promise<pg.QueryResult> };
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields ?? []) {
      if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    }
    return result;
  };
}
