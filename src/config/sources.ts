// Where raw setting values come from: app.ini text and the environment, as section → key → text.
import { ConfigError } from './config-error.ts';

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
export function environmentValues(env: NodeJS.ProcessEnv): Map<string, Map<string, string>> {
  const values = new Map<string, Map<string, string>>();
  const put = (section: string, key: string, value: string) => {
    if (!values.has(section)) values.set(section, new Map());
    values.get(section)!.set(key.toUpperCase(), value);
  };
  for (const [name, value] of Object.entries(env)) {
    const match = /^ANVIL__(.+?)__(.+)$/.exec(name);
    if (match && value !== undefined)
      put(match[1].replace(/_0x2E_/gi, '.').toLowerCase(), match[2].replace(/_0x2E_/gi, '.'), value);
  }
  if (env.PORT) put('server', 'HTTP_PORT', env.PORT);
  if (env.ANVIL_ROOT_URL) put('server', 'ROOT_URL', env.ANVIL_ROOT_URL);
  if (env.DATABASE_URL) put('database', 'URL', env.DATABASE_URL);
  return values;
}

/** The raw values of both sources, the second winning key by key. */
export function mergeSections(
  base: Map<string, Map<string, string>>,
  over: Map<string, Map<string, string>>,
): Map<string, Map<string, string>> {
  const merged = new Map<string, Map<string, string>>();
  for (const name of new Set([...base.keys(), ...over.keys()]))
    merged.set(name, new Map([...(base.get(name) ?? []), ...(over.get(name) ?? [])]));
  return merged;
}
