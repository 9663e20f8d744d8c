// [mailer] in app.ini.
import { str, int, bool } from '../setting-types.ts';

export const mailer = {
  ENABLED: bool(false),
  SMTP_ADDR: str(''),
  SMTP_PORT: int(25, 1),
  FROM: str('anvil@localhost'),
  USER: str(''),
  PASSWD: str(''),
} as const;
