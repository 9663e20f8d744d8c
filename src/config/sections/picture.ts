// [picture] in app.ini.
import { int, size, str } from '../setting-types.ts';

// Uploaded avatars larger than this are refused before they are decoded.
export const picture = {
  AVATAR_MAX_WIDTH: int(4096, 1),
  AVATAR_MAX_HEIGHT: int(4096, 1),
  AVATAR_MAX_FILE_SIZE: size(1048576),
  // where uploaded avatars live (settings.storage.avatars)
  AVATAR_STORAGE_TYPE: str(''),
  AVATAR_UPLOAD_PATH: str(''),
} as const;
