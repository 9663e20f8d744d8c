// The keys before any [section] in app.ini. Forgejo's; Anvil reads none of them but knows them, so a Forgejo
// app.ini is not met with warnings about them.
import { str } from '../setting-types.ts';

export const root = {
  APP_NAME: str('Anvil'),
  RUN_USER: str(''),
  RUN_MODE: str('prod'),
  WORK_PATH: str(''),
} as const;
