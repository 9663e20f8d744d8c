// [packages] in app.ini.
import { str, sizeLimit } from '../setting-types.ts';

// Package blobs: where they live (settings.storage.packages; PATH is the local folder) and the largest generic upload.
export const packages = {
  STORAGE_TYPE: str(''),
  PATH: str(''),
  LIMIT_SIZE_GENERIC: sizeLimit(),
} as const;
