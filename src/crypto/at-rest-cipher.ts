// Encryption of stored credentials (Actions secrets, webhook secrets and authorization headers): AES-256-GCM with
// a random 96-bit nonce per value. A value names the key it was sealed under, so a changed key is reported as such
// instead of as a corrupt value, and is bound to where it is stored (associated data), so a ciphertext copied into
// another row or column does not open there.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class AtRestDecryptionError extends Error {}

export class AtRestCipher {
  /** How every encrypted value starts. */
  static readonly PREFIX = 'enc1:';

  /** A short fingerprint of the key, stored with every value; it reveals nothing about the key. */
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('an at-rest key is 32 bytes');
    this.keyId = createHash('sha256').update('anvil key id').update(key).digest('hex').slice(0, 8);
  }

  /** Whether a stored value was written by encrypt() (anything else is a value from before encryption). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(AtRestCipher.PREFIX);
  }

  /** `enc1:<key id>:<base64 of nonce ‖ ciphertext ‖ tag>`; `context` says where the value is stored. */
  encrypt(plaintext: string, context: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([nonce, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${AtRestCipher.PREFIX}${this.keyId}:${sealed.toString('base64')}`;
  }

  decrypt(stored: string, context: string): string {
    const match = /^enc1:([0-9a-f]{8}):([A-Za-z0-9+/=]*)$/.exec(stored);
    if (!match) throw new AtRestDecryptionError(`${context}: not an encrypted value`);
    if (match[1] !== this.keyId) {
      throw new AtRestDecryptionError(
        `${context}: encrypted under another key (${match[1]}, this one is ${this.keyId}); was [security] SECRET_KEY or the key file changed?`,
      );
    }
    const sealed = Buffer.from(match[2], 'base64');
    if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new AtRestDecryptionError(`${context}: truncated value`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new AtRestDecryptionError(
        `${context}: the value does not authenticate (altered, or moved from another row)`,
      );
    }
  }

  /** Reads a column that may still hold a value from before encryption: such a value is returned as it is. */
  open(stored: string, context: string): string {
    return AtRestCipher.isSealed(stored) ? this.decrypt(stored, context) : stored;
  }
}
