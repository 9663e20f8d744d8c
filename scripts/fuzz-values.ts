// Values the contract fuzzer (scripts/fuzz.ts) sends where a parameter or field has a type: numbers at and beyond
// what int64 and a JSON number hold (as raw JSON literals, so 1e400 and -0 reach the server as written), exotic
// RFC 3339 date-times, and strings that name object prototype keys.
type Schema = Record<string, unknown>;

export const PROTOTYPE_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  '__defineGetter__',
  'isPrototypeOf',
];

/** JSON number literals as sent: int32/int64/2^53 edges, beyond int64, non-finite once parsed, -0, fractions. */
export const NUMBER_LITERALS = [
  '2147483647',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740991',
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '-9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '1e308',
  '-1e308',
  '1e400',
  '-1e400',
  '-0',
  '0.0',
  '1.0',
  '1.5',
  '1e3',
  '5e-324',
];

/** Query spellings of numbers a JSON body cannot carry. */
export const NUMBER_QUERY_TEXTS = [
  ...NUMBER_LITERALS,
  'Infinity',
  '-Infinity',
  'NaN',
  '0x10',
  '1_000',
  '+1',
  ' 1',
  '1 ',
];

export const EXOTIC_DATE_TIMES = [
  '2024-01-01T00:00:00+25:00',
  '2024-01-01T00:00:00+23:60',
  '2024-01-01T00:00:00-24:00',
  '0001-01-01T00:00:00Z',
  '0000-01-01T00:00:00+23:59',
  '9999-12-31T23:59:59-23:59',
  '9999-12-31T23:59:59.999999999Z',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.5Z',
  '275760-09-13T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01t00:00:00z',
  '2024-01-01 00:00:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '2024-01-01T00:00:00.' + '9'.repeat(400) + 'Z',
  '2024-01-01T00:00:00+0100',
];

const RAW = /"@@raw@@([^"@]*)@@"/g;

/** Stands in a value for a raw JSON literal; `jsonText` writes it unquoted. */
export function rawLiteral(literal: string): string {
  return `@@raw@@${literal}@@`;
}

export function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(RAW, '$1');
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** An odd value that fits the field's declared kind, for a JSON body (numbers as raw literals). */
export function typedOddBodyValue(schema: Schema | undefined, random: () => number): unknown {
  if (schema?.type === 'integer' || schema?.type === 'number') return rawLiteral(pick(random, NUMBER_LITERALS));
  if (schema?.format === 'date-time') return pick(random, EXOTIC_DATE_TIMES);
  if (schema?.type === 'array') return [typedOddBodyValue(schema.items as Schema | undefined, random)];
  return pick(random, PROTOTYPE_KEYS);
}

/** An odd query text that fits the parameter's declared kind. */
export function typedOddQueryText(schema: Schema | undefined, random: () => number): string {
  const item = schema?.type === 'array' ? (schema.items as Schema | undefined) : schema;
  if (item?.type === 'integer' || item?.type === 'number') return pick(random, NUMBER_QUERY_TEXTS);
  if (item?.format === 'date-time') return pick(random, EXOTIC_DATE_TIMES);
  return pick(random, PROTOTYPE_KEYS);
}
