// [security] in app.ini.
import { str, int, bool, list, listOf } from '../setting-types.ts';

export const security = {
  MIN_PASSWORD_LENGTH: int(8, 1),
  PASSWORD_COMPLEXITY: listOf<'lower' | 'upper' | 'digit' | 'spec'>([], ['lower', 'upper', 'digit', 'spec']),
  PASSWORD_CHECK_PWN: bool(false),
  // argon2$<time>$<memory KiB>$<threads>$<key length>, Forgejo's notation
  PASSWORD_HASH_ALGO: str('argon2$2$19456$1$32'),
  // Anvil's own: argon2 computations at once, and the back-off after failed password sign-ins
  PASSWORD_HASH_CONCURRENCY: int(2, 1),
  PASSWORD_FAILURES_PER_ADDRESS: int(20, 0),
  PASSWORD_FAILURES_PER_ACCOUNT: int(10, 0),
  PASSWORD_FAILURE_WINDOW_SECONDS: int(300, 1),
  SECRET_KEY: str(''),
  // Forgejo's: peers whose X-Forwarded-For / X-Real-IP is believed (CIDRs or addresses, * for any), and how many
  // proxies in a row are
  REVERSE_PROXY_TRUSTED_PROXIES: list(['127.0.0.0/8', '::1/128']),
  REVERSE_PROXY_LIMIT: int(1, 0),
  DISABLE_WEBHOOKS: bool(false),
  DISABLE_QUERY_AUTH_TOKEN: bool(false),
  IMPORT_LOCAL_PATHS: bool(false),
} as const;
