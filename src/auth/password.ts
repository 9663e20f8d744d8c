// argon2id password hashes with the native `argon2` package: the work runs on libuv's thread pool, not the
// event loop. Parameters come from [security] PASSWORD_HASH_ALGO in Forgejo's notation,
// argon2$<time>$<memory KiB>$<threads>$<key length>, so tests can choose cheap ones. Stored hashes are PHC
// strings carrying their own parameters (those written by the earlier hash-wasm implementation included).
import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import { ConfigError } from '../config/settings.ts';
import { TooManyRequestsError } from '../domain/errors.ts';
import { concurrencyLimit } from '../lib/bounded-concurrency.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hash`. Without a usable hash (no such account, no password set) it checks a
   * dummy hash and answers false, so an unknown account costs what a known one does.
   */
  verify(hash: string | null, password: string): Promise<boolean>;
}

export interface PasswordHasherOptions {
  /** argon2 computations at once; more wait in line. */
  concurrency: number;
  /** How many may wait before further ones are refused (429). */
  waiting?: number;
}

const DEFAULT_WAITING = 256;

export function passwordHasher(
  algorithm: string,
  { concurrency, waiting = DEFAULT_WAITING }: PasswordHasherOptions,
): PasswordHasher {
  const parameters = parseAlgorithm(algorithm);
  const limit = concurrencyLimit(
    concurrency,
    waiting,
    () => new TooManyRequestsError('too many password checks in progress, try again later', 1),
  );
  const hash = (password: string) => limit.run(() => argon2idPhc(password, parameters));
  // Made once, in the background; the password is random and thrown away.
  let dummy: Promise<string> | null = null;
  const dummyHash = () =>
    (dummy ??= hash(randomBytes(16).toString('hex')).catch((error: unknown) => {
      dummy = null;
      throw error;
    }));
  dummyHash().catch(() => {});

  async function check(stored: string, password: string): Promise<boolean> {
    // A stored hash argon2 cannot read matches nothing.
    return limit.run(() => argon2.verify(stored, password).catch(() => false));
  }

  return {
    hash,
    async verify(stored, password) {
      if (stored?.startsWith('$argon2')) return check(stored, password);
      await check(await dummyHash(), password);
      return false;
    },
  };
}

type Parameters = { timeCost: number; memoryCost: number; parallelism: number; hashLength: number };

/**
 * The PHC string with its parameters in the reference order (m, t, p), as hash-wasm and argon2's own encoder
 * write them; the package orders them otherwise, which strict decoders (libargon2's) refuse.
 */
async function argon2idPhc(password: string, parameters: Parameters): Promise<string> {
  const salt = randomBytes(16);
  const key = await argon2.hash(password, { ...parameters, type: argon2.argon2id, salt, raw: true });
  const { memoryCost: m, timeCost: t, parallelism: p } = parameters;
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${unpadded(salt)}$${unpadded(key)}`;
}

function unpadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

function parseAlgorithm(algorithm: string): Parameters {
  const [name, ...numbers] = algorithm.split('$');
  const [timeCost, memoryCost, parallelism, hashLength] = numbers.map(Number);
  if (
    name !== 'argon2' ||
    numbers.length !== 4 ||
    [timeCost, memoryCost, parallelism, hashLength].some((n) => !Number.isInteger(n) || n < 1)
  ) {
    throw new ConfigError(
      `[security] PASSWORD_HASH_ALGO: "${algorithm}" is not argon2$<time>$<memory KiB>$<threads>$<key length>`,
    );
  }
  if (memoryCost < 8 * parallelism || hashLength < 4) {
    throw new ConfigError(
      `[security] PASSWORD_HASH_ALGO: memory must be at least 8 KiB per thread and the key at least 4 bytes`,
    );
  }
  return { timeCost, memoryCost, parallelism, hashLength };
}
