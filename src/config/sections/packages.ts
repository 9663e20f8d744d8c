// [packages] in app.ini.
import { str, sizeLimit } from '../setting-types.ts';

// Package blobs: where they live (settings.storage.packages; PATH is the local folder), the largest generic file,
// the largest container blob, and the largest file of each registry.
export const packages = {
  STORAGE_TYPE: str(''),
  PATH: str(''),
  MINIO_BUCKET: str(''),
  MINIO_BASE_PATH: str(''),
  LIMIT_SIZE_GENERIC: sizeLimit(),
  LIMIT_SIZE_CONTAINER: sizeLimit(),
  LIMIT_SIZE_PYPI: sizeLimit(),
  LIMIT_SIZE_MAVEN: sizeLimit(),
  LIMIT_SIZE_NPM: sizeLimit(),
  LIMIT_SIZE_CARGO: sizeLimit(),
  LIMIT_SIZE_VAGRANT: sizeLimit(),
  LIMIT_SIZE_GO: sizeLimit(),
  LIMIT_SIZE_COMPOSER: sizeLimit(),
  LIMIT_SIZE_RUBYGEMS: sizeLimit(),
  LIMIT_SIZE_CRAN: sizeLimit(),
  LIMIT_SIZE_NUGET: sizeLimit(),
  LIMIT_SIZE_HELM: sizeLimit(),
  LIMIT_SIZE_PUB: sizeLimit(),
  LIMIT_SIZE_DEBIAN: sizeLimit(),
  LIMIT_SIZE_ALPINE: sizeLimit(),
  LIMIT_SIZE_RPM: sizeLimit(),
  LIMIT_SIZE_ARCH: sizeLimit(),
  LIMIT_SIZE_CONDA: sizeLimit(),
  LIMIT_SIZE_SWIFT: sizeLimit(),
  LIMIT_SIZE_CHEF: sizeLimit(),
} as const;
