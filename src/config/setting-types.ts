// The kinds of value a setting holds, each parsed from its app.ini text with Forgejo's notation.
import { ConfigError } from './config-error.ts';
import { parseGoDurationMs } from '../lib/go-duration.ts';
import { parse as parseBytes } from 'bytes-iec';

export interface Setting<T> {
  readonly defaultValue: T;
  parse(raw: string, key: string): T;
}

export function str(defaultValue = ''): Setting<string> {
  return { defaultValue, parse: (raw) => raw };
}

export function int(defaultValue: number, min = -Infinity): Setting<number> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = Number(raw.trim());
      if (!Number.isInteger(value) || value < min)
        throw new ConfigError(`${key}: "${raw}" is not an integer${min > -Infinity ? ` ≥ ${min}` : ''}`);
      return value;
    },
  };
}

/**
 * A byte count as Forgejo reads one (go-humanize): `100MB` (decimal), `1 GiB` (binary), plain bytes; git's single
 * letters `k`, `m`, `g` are binary multiples as in git's own settings.
 */
export function parseSize(raw: string): number | null {
  const text = raw.trim().replace(/^(\d+(?:\.\d+)?)\s*([kmgt])$/i, '$1 $2iB');
  if (!/^\d+(?:\.\d+)?\s*[a-z]*$/i.test(text)) return null;
  const value = parseBytes(text);
  return value === null || !Number.isFinite(value) ? null : Math.floor(value);
}

export function size(defaultValue: number): Setting<number> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = parseSize(raw);
      if (value === null) throw new ConfigError(`${key}: "${raw}" is not a size (bytes, or e.g. 512k, 100MB, 1 GiB)`);
      return value;
    },
  };
}

/** A size bound as Forgejo's LIMIT_SIZE_* keys take it: -1 for none, else a size. */
export function sizeLimit(defaultValue = -1): Setting<number> {
  return {
    defaultValue,
    parse: (raw, key) => (raw.trim() === '-1' ? -1 : size(defaultValue).parse(raw, key)),
  };
}

export function bool(defaultValue: boolean): Setting<boolean> {
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
export function list(defaultValue: string[] = []): Setting<string[]> {
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
export function duration(defaultText: string, minMs = 0): Setting<number> {
  return {
    defaultValue: parseGoDurationMs(defaultText)!,
    parse(raw, key) {
      const value = parseGoDurationMs(raw.trim());
      if (value === null || value < minMs)
        throw new ConfigError(
          `${key}: "${raw}" is not a duration${minMs > 0 ? ` of at least ${minMs} ms` : ''} (e.g. 5s, 1m)`,
        );
      return value;
    },
  };
}

export function oneOf<T extends string>(defaultValue: T, values: readonly T[]): Setting<T> {
  return {
    defaultValue,
    parse(raw, key) {
      const value = raw.trim().toLowerCase() as T;
      if (!values.includes(value)) throw new ConfigError(`${key}: "${raw}" is not one of ${values.join(', ')}`);
      return value;
    },
  };
}

export function listOf<T extends string>(defaultValue: T[], values: readonly T[]): Setting<T[]> {
  return {
    defaultValue,
    parse(raw, key) {
      const items = list()
        .parse(raw, key)
        .filter((item) => item !== 'off') as T[];
      const bad = items.find((item) => !values.includes(item));
      if (bad) throw new ConfigError(`${key}: "${bad}" is not one of ${values.join(', ')}`);
      return items;
    },
  };
}
