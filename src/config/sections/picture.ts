// [picture] in app.ini.
import { int } from '../setting-types.ts';

// Uploaded avatars larger than this are refused before they are decoded.
export const picture = {
  AVATAR_MAX_WIDTH: int(4096, 1),
  AVATAR_MAX_HEIGHT: int(4096, 1),
  AVATAR_MAX_FILE_SIZE: int(1048576, 1),
} as const;
