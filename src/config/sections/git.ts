// [git], [git.config] in app.ini.
import { int, size } from '../setting-types.ts';

export const git = {
  // Largest upload-pack request (after gzip inflation) and receive-pack command list, as git http-backend's
  // GIT_HTTP_MAX_REQUEST_BUFFER.
  HTTP_MAX_REQUEST_BUFFER: size(10 * 1024 ** 2),
  // Anonymous clones and fetches served at once; 0 for no bound.
  MAX_ANONYMOUS_CLONES: int(8, 0),
} as const;

// Forgejo passes this section to git as configuration; Anvil reads the keys it applies.
export const gitConfig = {
  // Largest pack a push may send; 0 for no bound.
  'RECEIVE.MAXINPUTSIZE': size(2 * 1024 ** 3),
} as const;
