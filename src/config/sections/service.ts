// [service] in app.ini.
import { str, bool, list, oneOf } from '../setting-types.ts';

export const service = {
  REQUIRE_SIGNIN_VIEW: bool(false),
  EMAIL_DOMAIN_ALLOWLIST: list(),
  EMAIL_DOMAIN_BLOCKLIST: list(),
  DEFAULT_ORG_MEMBER_VISIBLE: bool(false),
  DEFAULT_USER_VISIBILITY: oneOf('public', ['public', 'limited', 'private'] as const),
  DEFAULT_ALLOW_CREATE_ORGANIZATION: bool(true),
  NO_REPLY_ADDRESS: str('noreply.localhost'),
  DISABLE_REGISTRATION: bool(false),
} as const;
