import argon2 from 'argon2';
import { passwordHasher } from '../../src/auth/password.ts';
import { ConfigError } from '../../src/config/settings.ts';
import { TooManyRequestsError } from '../../src/domain/errors.ts';

const CHEAP = 'argon2$1$64$1$16';
const PASSWORD = 'correct horse battery staple';

describe('passwordHasher', () => {
  it('hashes to an argon2id PHC string with the configured parameters and verifies it', async () => {
    const hasher = passwordHasher('argon2$1$256$2$24', { concurrency: 2 });
    const hash = await hasher.hash(PASSWORD);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=2\$/);
    expect(Buffer.from(hash.split('$')[5], 'base64').length).toBe(24);
    await expect(hasher.verify(hash, PASSWORD)).resolves.toBe(true);
    await expect(hasher.verify(hash, 'wrong')).resolves.toBe(false);
  });

  it('keeps verifying hashes written by the earlier hash-wasm implementation', async () => {
    const hasher = passwordHasher(CHEAP, { concurrency: 1 });
    // Made with hash-wasm 4.13 argon2id({ outputType: 'encoded' }) at Forgejo's default and at the tests' parameters.
    const atDefaults =
      '$argon2id$v=19$m=19456,t=2,p=1$rYn+eBvyJ5h0D4rSPQxsFA$yZ1RXpeDGRu3QUJ57wMPnLhAUbCFBLLcf6aeQv670M8';
    const cheap = '$argon2id$v=19$m=64,t=1,p=1$kC3+B9Z5xY48SwqUpGznnw$I0pieFjyI2U+k930QQrjig';
    for (const hash of [atDefaults, cheap]) {
      await expect(hasher.verify(hash, PASSWORD)).resolves.toBe(true);
      await expect(hasher.verify(hash, PASSWORD + '!')).resolves.toBe(false);
    }
  });

  it('answers false for a missing, empty or unreadable hash, after checking the dummy hash', async () => {
    const hasher = passwordHasher(CHEAP, { concurrency: 1 });
    const verify = jest.spyOn(argon2, 'verify');
    try {
      for (const stored of [null, '', 'pbkdf2$50000$50$abc', '$argon2id$garbage']) {
        verify.mockClear();
        await expect(hasher.verify(stored, PASSWORD)).resolves.toBe(false);
        expect(verify).toHaveBeenCalledTimes(1);
      }
    } finally {
      verify.mockRestore();
    }
  });

  it('runs at most `concurrency` argon2 computations at once and refuses beyond the waiting line', async () => {
    const hasher = passwordHasher(CHEAP, { concurrency: 2, waiting: 3 });
    const hash = await hasher.hash(PASSWORD);
    // The stand-in hash for unknown accounts is made in the background under the same limit: let it finish first.
    await hasher.verify(null, PASSWORD);
    let running = 0;
    let most = 0;
    const original = argon2.verify;
    const verify = jest.spyOn(argon2, 'verify').mockImplementation(async (...args) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return original(...args);
    });
    try {
      const checks = Array.from({ length: 5 }, () => hasher.verify(hash, PASSWORD));
      await expect(hasher.verify(hash, PASSWORD)).rejects.toBeInstanceOf(TooManyRequestsError);
      await expect(Promise.all(checks)).resolves.toEqual([true, true, true, true, true]);
      expect(most).toBe(2);
    } finally {
      verify.mockRestore();
    }
  });

  it.each(['bcrypt', 'argon2$2$19456$1', 'argon2$0$19456$1$32', 'argon2$1$8$2$32', 'argon2$1$64$1$2'])(
    'refuses PASSWORD_HASH_ALGO %s',
    (algorithm) => {
      expect(() => passwordHasher(algorithm, { concurrency: 1 })).toThrow(ConfigError);
    },
  );
});
