// app.ini text ─▶ section ─▶ KEY ─▶ text, read by the `ini` library with Forgejo's (go-ini's) syntax: `;` and `#`
// comments, also after a value (quote a value that holds one), "double" and 'single' quotes, and """ values over
// several lines, which `ini` lacks and which are turned into one JSON-quoted line before it reads them.
import ini from 'ini';
import { ConfigError } from './config-error.ts';

export type RawSections = Map<string, Map<string, string>>;

const TRIPLE_QUOTE = '"""';

/** Rewrites `KEY = """…"""` (on one line or several) as `KEY = "…"` with JSON escapes, which `ini` unquotes. */
function joinTripleQuoted(text: string): string {
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const match = /^(\s*[^=;#[]+?\s*=\s*)"""(.*)$/.exec(lines[i]);
    if (!match) {
      out.push(lines[i]);
      continue;
    }
    const start = i;
    const parts = [match[2]];
    while (!parts[parts.length - 1].includes(TRIPLE_QUOTE)) {
      if (++i >= lines.length) throw new ConfigError(`app.ini line ${start + 1}: a """ value is never closed`);
      parts.push(lines[i]);
    }
    const last = parts[parts.length - 1];
    parts[parts.length - 1] = last.slice(0, last.indexOf(TRIPLE_QUOTE));
    out.push(`${match[1]}${JSON.stringify(parts.join('\n'))}`);
  }
  return out.join('\n');
}

function asText(value: unknown): string {
  if (Array.isArray(value)) return value.map(asText).join(',');
  return value === null || value === undefined ? '' : String(value);
}

/** `ini` nests [a.b] under a; sections are flattened back to their dotted names. */
function collect(sections: RawSections, name: string, entries: Record<string, unknown>): void {
  const keys = new Map<string, string>();
  let children = 0;
  for (const [key, value] of Object.entries(entries)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      children++;
      collect(sections, name ? `${name}.${key}` : key, value as Record<string, unknown>);
    } else keys.set(key.trim().toUpperCase(), asText(value));
  }
  // [a.b] alone leaves an empty a behind, which app.ini never named.
  if (keys.size === 0 && children > 0 && name) return;
  const existing = sections.get(name);
  sections.set(name, existing ? new Map([...existing, ...keys]) : keys);
}

/** The sections of app.ini text; keys upper-cased and section names lower-cased, as Forgejo looks them up. */
export function parseIniText(text: string): RawSections {
  const parsed = ini.parse(joinTripleQuoted(text.replace(/^\uFEFF/, ''))) as Record<string, unknown>;
  const sections: RawSections = new Map([['', new Map()]]);
  collect(sections, '', parsed);
  const lowered: RawSections = new Map();
  for (const [name, keys] of sections) {
    const lower = name.toLowerCase();
    lowered.set(lower, new Map([...(lowered.get(lower) ?? []), ...keys]));
  }
  return lowered;
}
