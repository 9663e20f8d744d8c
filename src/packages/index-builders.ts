// The builders of the system-package repositories' indexes, by package type (src/packages/core/repository-index.ts
// runs them in the "package-index" job after each upload and delete).
import { ALT_INDEX_BUILDER } from './alt/alt-index-builder.ts';
import { ARCH_INDEX_BUILDER } from './arch/arch-index-builder.ts';
import type { IndexBuilders } from './core/repository-index.ts';
import { ALPINE, alpineIndexBuilder } from './alpine/alpine-index.ts';
import { DEBIAN, debianIndexBuilder } from './debian/debian-index.ts';
import { RPM_INDEX_BUILDER } from './rpm/rpm-index-builder.ts';

export const INDEX_BUILDERS: IndexBuilders = {
  [ALPINE]: alpineIndexBuilder,
  alt: ALT_INDEX_BUILDER,
  arch: ARCH_INDEX_BUILDER,
  [DEBIAN]: debianIndexBuilder,
  rpm: RPM_INDEX_BUILDER,
};
