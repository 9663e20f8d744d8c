// [metrics] in app.ini: GET /metrics in Prometheus' format, off by default; with a TOKEN, only for
// `Authorization: Bearer <TOKEN>`.
import { str, bool } from '../setting-types.ts';

export const metrics = {
  ENABLED: bool(false),
  TOKEN: str(''),
} as const;
