// [markup] in app.ini.
import { int, duration } from '../setting-types.ts';

// Anvil's own: how long rendering one markup document may take (waiting for a render thread included), and how
// many render threads run at most (0: as many as there are cores, at most 2).
export const markup = {
  RENDER_TIMEOUT: duration('5s', 1),
  RENDER_THREADS: int(0, 0),
} as const;
