// The builders of the system-package repositories' indexes, by package type (src/packages/core/repository-index.ts
// runs them in the "package-index" job after each upload and delete). Each is loaded at its first build or delete,
// with its formats and signing: most instances never build one.
import { onFirstUse } from '../lib/on-first-use.ts';
import type { IndexBuilder, IndexBuilders } from './core/repository-index.ts';

function loadedAtFirstBuild(load: () => IndexBuilder): IndexBuilder {
  const loaded = onFirstUse(load);
  return {
    build: (input) => loaded().build(input),
    scopesOf: (repos, version) => loaded().scopesOf(repos, version),
  };
}

export const INDEX_BUILDERS: IndexBuilders = {
  alpine: loadedAtFirstBuild(
    () => (require('./alpine/alpine-index.ts') as typeof import('./alpine/alpine-index.ts')).alpineIndexBuilder,
  ),
  alt: loadedAtFirstBuild(
    () => (require('./alt/alt-index-builder.ts') as typeof import('./alt/alt-index-builder.ts')).ALT_INDEX_BUILDER,
  ),
  arch: loadedAtFirstBuild(
    () => (require('./arch/arch-index-builder.ts') as typeof import('./arch/arch-index-builder.ts')).ARCH_INDEX_BUILDER,
  ),
  debian: loadedAtFirstBuild(
    () => (require('./debian/debian-index.ts') as typeof import('./debian/debian-index.ts')).debianIndexBuilder,
  ),
  rpm: loadedAtFirstBuild(
    () => (require('./rpm/rpm-index-builder.ts') as typeof import('./rpm/rpm-index-builder.ts')).RPM_INDEX_BUILDER,
  ),
};
