// Where raw setting values come from: the app.ini file and the environment, as section ─▶ KEY ─▶ text.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from './config-error.ts';
import { parseIniText, type RawSections } from './ini-file.ts';

export type { RawSections };

/** Kept for callers that parse text directly. */
export const parseIni = parseIniText;

/**
 * The app.ini to read, first found: `--config`/`-c` (given by the caller), ANVIL_CONFIG, $ANVIL_DATA_DIR/app.ini.
 * A file named explicitly must exist; the default one may be absent.
 */
export function configFile(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  explicit?: string,
): { file: string; required: boolean } {
  const named = explicit || env.ANVIL_CONFIG;
  return named
    ? { file: path.resolve(named), required: true }
    : { file: path.join(dataDir, 'app.ini'), required: false };
}

export function readConfigFile(file: string, required: boolean): RawSections {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return new Map();
    throw new ConfigError(`cannot read the configuration file ${file}: ${code ?? (error as Error).message}`);
  }
  return parseIniText(text);
}

const PREFIXES = ['FORGEJO__', 'GITEA__', 'ANVIL__'];
const FILE_SUFFIX = '__FILE';
// Forgejo's portable names: a character outside [A-Z0-9_] is written as its UTF-8 bytes, _0X2E_ for '.'.
const ESCAPE = /_0[xX]((?:[0-9a-fA-F]{2})+)_/g;

function unescapeName(text: string): string {
  return text.replace(ESCAPE, (_all, hex: string) => Buffer.from(hex, 'hex').toString('utf8'));
}

/** SECTION__KEY (escapes allowed) ─▶ [section, KEY]; the first plain `__` outside an escape separates them. */
function splitSectionKey(encoded: string): [string, string] | null {
  const masked = encoded.replace(ESCAPE, (all) => '\0'.repeat(all.length));
  const at = masked.indexOf('__');
  if (at < 0) return null;
  const key = unescapeName(encoded.slice(at + 2));
  return key ? [unescapeName(encoded.slice(0, at)).toLowerCase(), key.toUpperCase()] : null;
}

function fileValue(name: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (error) {
    throw new ConfigError(`${name}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`);
  }
}

/**
 * Raw values from the environment: FORGEJO__<section>__<KEY>, GITEA__… and ANVIL__… (later prefixes win), each
 * with a __FILE form whose value is a file to read, plus Anvil's conventional short names.
 */
export function environmentValues(env: NodeJS.ProcessEnv): RawSections {
  const values: RawSections = new Map();
  const put = (section: string, key: string, value: string) => {
    if (!values.has(section)) values.set(section, new Map());
    values.get(section)!.set(key.toUpperCase(), value);
  };
  for (const prefix of PREFIXES) {
    for (const [name, value] of Object.entries(env)) {
      if (!name.startsWith(prefix) || value === undefined) continue;
      const fromFile = name.endsWith(FILE_SUFFIX);
      const sectionKey = splitSectionKey(name.slice(prefix.length, fromFile ? -FILE_SUFFIX.length : undefined));
      if (sectionKey) put(...sectionKey, fromFile ? fileValue(name, value) : value);
    }
  }
  if (env.PORT) put('server', 'HTTP_PORT', env.PORT);
  if (env.ANVIL_ROOT_URL) put('server', 'ROOT_URL', env.ANVIL_ROOT_URL);
  if (env.DATABASE_URL) put('database', 'URL', env.DATABASE_URL);
  return values;
}

/** The raw values of both sources, the second winning key by key. */
export function mergeSections(base: RawSections, over: RawSections): RawSections {
  const merged: RawSections = new Map();
  for (const name of new Set([...base.keys(), ...over.keys()]))
    merged.set(name, new Map([...(base.get(name) ?? []), ...(over.get(name) ?? [])]));
  return merged;
}
