import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AtRestCipher, AtRestDecryptionError } from '../../src/crypto/at-rest-cipher.ts';
import { GENERATED_KEY_FILE, loadAtRestKey } from '../../src/crypto/at-rest-key.ts';
import { randomAlphanumeric } from '../../src/crypto/random-alphanumeric.ts';

const key = (byte: number) => Buffer.alloc(32, byte);

describe('AtRestCipher', () => {
  const cipher = new AtRestCipher(key(1));

  it.each(['', 'plain', 'ünïcødé ✓\r\n\0 end', 'x'.repeat(100_000)])('opens what it sealed: %#', (value) => {
    const sealed = cipher.encrypt(value, 'secret:1:0:NAME');
    expect(AtRestCipher.isSealed(sealed)).toBe(true);
    expect(cipher.decrypt(sealed, 'secret:1:0:NAME')).toBe(value);
    expect(cipher.open(sealed, 'secret:1:0:NAME')).toBe(value);
  });

  it('seals equal values differently', () => {
    expect(cipher.encrypt('same', 'c')).not.toBe(cipher.encrypt('same', 'c'));
  });

  it('refuses another context, an altered value, a truncated one and one sealed under another key', () => {
    const sealed = cipher.encrypt('value', 'secret:1:0:A');
    expect(() => cipher.decrypt(sealed, 'secret:1:0:B')).toThrow(AtRestDecryptionError);
    const body = Buffer.from(sealed.split(':')[2], 'base64');
    body[14] ^= 1;
    expect(() => cipher.decrypt(`enc1:${cipher.keyId}:${body.toString('base64')}`, 'secret:1:0:A')).toThrow(
      /does not authenticate/,
    );
    expect(() => cipher.decrypt(`enc1:${cipher.keyId}:AAAA`, 'secret:1:0:A')).toThrow(/truncated/);
    expect(() => new AtRestCipher(key(2)).decrypt(sealed, 'secret:1:0:A')).toThrow(/another key/);
    expect(() => cipher.decrypt('clear text', 'secret:1:0:A')).toThrow(/not an encrypted value/);
  });

  it('reads a value from before encryption as it is', () => {
    expect(cipher.open('Bearer legacy', 'webhook.authorization')).toBe('Bearer legacy');
  });
});

describe('loadAtRestKey', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-key-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('derives the same key from the same SECRET_KEY and writes no file', () => {
    const a = loadAtRestKey('configured', dir);
    expect(a.source).toEqual({ kind: 'setting' });
    expect(a.key).toEqual(loadAtRestKey('configured', dir).key);
    expect(a.key).not.toEqual(loadAtRestKey('configured!', dir).key);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('generates a key file once, mode 0600, and reads it afterwards', () => {
    const first = loadAtRestKey('', dir);
    expect(first.source).toEqual({ kind: 'file', file: path.join(dir, GENERATED_KEY_FILE), created: true });
    expect(fs.statSync(path.join(dir, GENERATED_KEY_FILE)).mode & 0o777).toBe(0o600);
    const again = loadAtRestKey('', dir);
    expect(again.source).toMatchObject({ created: false });
    expect(again.key).toEqual(first.key);
    expect(fs.readdirSync(dir)).toEqual([GENERATED_KEY_FILE]);
  });

  it('refuses a key file that holds no key', () => {
    fs.writeFileSync(path.join(dir, GENERATED_KEY_FILE), 'short\n');
    expect(() => loadAtRestKey('', dir)).toThrow(/does not hold a key/);
  });
});

describe('randomAlphanumeric', () => {
  it('draws the asked number of characters from [0-9A-Za-z], all of them in time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const value = randomAlphanumeric(40);
      expect(value).toMatch(/^[0-9A-Za-z]{40}$/);
      for (const char of value) seen.add(char);
    }
    expect(seen.size).toBe(62);
  });
});
