// [ssh], [ssh.minimum_key_sizes] in app.ini.
import { int, bool } from '../setting-types.ts';

export const ssh = {
  MINIMUM_KEY_SIZE_CHECK: bool(true),
} as const;

// Smallest accepted public keys in bits, Forgejo's defaults; 0 or less accepts any size.
export const sshMinimumKeySizes = {
  ED25519: int(256),
  ECDSA: int(256),
  RSA: int(3071),
} as const;
