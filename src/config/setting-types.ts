// The kinds of value a setting holds, each parsed from its app.ini text with Forgejo's notation.
import { ConfigError } from './config-error.ts';
import { parseGoDurationMs } from '../lib/go-duration.ts';

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

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/** A byte count in git's notation: a number with an optional k, m or g suffix (binary multiples). */
export function size(defaultValue: number): Setting<number> {
  return {
    defaultValue,
    parse(raw, key) {
      const match = /^(\d+)\s*([kmg]?)$/i.exec(raw.trim());
      if (!match)
        throw new ConfigError(`${key}: "${raw}" is not a size (a number of bytes, optionally with k, m or g)`);
      return Number(match[1]) * SIZE_UNITS[match[2].toLowerCase()];
    },
  };
}

/** A size bound as Forgejo's LIMIT_SIZE_* keys take it: -1 for none, else a size in git's notation. */
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
