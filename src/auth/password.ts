// argon2id password hashes (hash-wasm: WebAssembly, no native build). Parameters come from
// [security] PASSWORD_HASH_ALGO in Forgejo's notation, argon2$<time>$<memory KiB>$<threads>$<key length>,
// so tests can choose cheap ones. Stored hashes are PHC strings and carry their own parameters.
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';
import { ConfigError } from '../config.ts';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export function passwordHasher(algorithm: string): PasswordHasher {
  const [name, ...numbers] = algorithm.split('$');
  const [iterations, memorySize, parallelism, hashLength] = numbers.map(Number);
  if (name !== 'argon2' || numbers.length !== 4 || [iterations, memorySize, parallelism, hashLength].some((n) => !Number.isInteger(n) || n < 1)) {
    throw new ConfigError(`[security] PASSWORD_HASH_ALGO: "${algorithm}" is not argon2$<time>$<memory KiB>$<threads>$<key length>`);
  }
  if (memorySize < 8 * parallelism || hashLength < 4) {
    throw new ConfigError(`[security] PASSWORD_HASH_ALGO: memory must be at least 8 KiB per thread and the key at least 4 bytes`);
  }
  return {
    hash: (password) =>
      argon2id({ password, salt: randomBytes(16), iterations, memorySize, parallelism, hashLength, outputType: 'encoded' }),
    async verify(hash, password) {
      if (!hash.startsWith('$argon2')) return false;
      try {
        return await argon2Verify({ password, hash });
      } catch {
        return false;
      }
    },
  };
}
