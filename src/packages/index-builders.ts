// The builders of the system-package repositories' indexes, by package type (src/packages/core/repository-index.ts
// runs them in the "package-index" job after each upload and delete).
import type { IndexBuilders } from './core/repository-index.ts';
import { ALPINE, alpineIndexBuilder } from './alpine/alpine-index.ts';
import { DEBIAN, debianIndexBuilder } from './debian/debian-index.ts';

export const INDEX_BUILDERS: IndexBuilders = {
  [ALPINE]: alpineIndexBuilder,
  [DEBIAN]: debianIndexBuilder,
};
