// The package registries served under /api/packages/{owner}/{type}/…, by type: each registry's route table
// (src/packages/<type>/), run by the core's router (src/packages/core/registry-router.ts) with the API's guard
// vocabulary. The generic registry is declared in the API's contract instead (src/api/routes/packages.routes.ts).
// Each table, with its handlers, services and parsers, is loaded at its registry's first request: most instances
// serve a few of these types, and loading all of them costs start time and memory.
import type { RegistryTable } from './core/registry-route.ts';
import { onFirstUse } from '../lib/on-first-use.ts';

export const PACKAGE_REGISTRIES: Readonly<Record<string, () => RegistryTable>> = {
  alpine: onFirstUse(
    () => (require('./alpine/alpine.routes.ts') as typeof import('./alpine/alpine.routes.ts')).ALPINE_REGISTRY,
  ),
  alt: onFirstUse(() => (require('./alt/alt.routes.ts') as typeof import('./alt/alt.routes.ts')).ALT_REGISTRY),
  helm: onFirstUse(() => (require('./helm/helm.routes.ts') as typeof import('./helm/helm.routes.ts')).HELM_REGISTRY),
  arch: onFirstUse(() => (require('./arch/arch.routes.ts') as typeof import('./arch/arch.routes.ts')).ARCH_REGISTRY),
  cargo: onFirstUse(
    () => (require('./cargo/cargo.routes.ts') as typeof import('./cargo/cargo.routes.ts')).CARGO_REGISTRY,
  ),
  chef: onFirstUse(() => (require('./chef/chef.routes.ts') as typeof import('./chef/chef.routes.ts')).CHEF_REGISTRY),
  composer: onFirstUse(
    () =>
      (require('./composer/composer.routes.ts') as typeof import('./composer/composer.routes.ts')).COMPOSER_REGISTRY,
  ),
  conan: onFirstUse(
    () => (require('./conan/conan.routes.ts') as typeof import('./conan/conan.routes.ts')).CONAN_REGISTRY,
  ),
  cran: onFirstUse(() => (require('./cran/cran.routes.ts') as typeof import('./cran/cran.routes.ts')).CRAN_REGISTRY),
  conda: onFirstUse(
    () => (require('./conda/conda.routes.ts') as typeof import('./conda/conda.routes.ts')).CONDA_REGISTRY,
  ),
  debian: onFirstUse(
    () => (require('./debian/debian.routes.ts') as typeof import('./debian/debian.routes.ts')).DEBIAN_REGISTRY,
  ),
  go: onFirstUse(() => (require('./go/go.routes.ts') as typeof import('./go/go.routes.ts')).GO_REGISTRY),
  maven: onFirstUse(
    () => (require('./maven/maven.routes.ts') as typeof import('./maven/maven.routes.ts')).MAVEN_REGISTRY,
  ),
  npm: onFirstUse(() => (require('./npm/npm-routes.ts') as typeof import('./npm/npm-routes.ts')).npmRegistry),
  nuget: onFirstUse(
    () => (require('./nuget/nuget.routes.ts') as typeof import('./nuget/nuget.routes.ts')).NUGET_REGISTRY,
  ),
  pub: onFirstUse(() => (require('./pub/pub.routes.ts') as typeof import('./pub/pub.routes.ts')).PUB_REGISTRY),
  pypi: onFirstUse(() => (require('./pypi/pypi.routes.ts') as typeof import('./pypi/pypi.routes.ts')).PYPI_REGISTRY),
  vagrant: onFirstUse(
    () => (require('./vagrant/vagrant.routes.ts') as typeof import('./vagrant/vagrant.routes.ts')).VAGRANT_REGISTRY,
  ),
  rpm: onFirstUse(() => (require('./rpm/rpm.routes.ts') as typeof import('./rpm/rpm.routes.ts')).RPM_REGISTRY),
  'rpm.repo': onFirstUse(
    () => (require('./rpm/rpm.routes.ts') as typeof import('./rpm/rpm.routes.ts')).RPM_ROOT_CONFIG,
  ),
  rubygems: onFirstUse(
    () =>
      (require('./rubygems/rubygems.routes.ts') as typeof import('./rubygems/rubygems.routes.ts')).RUBYGEMS_REGISTRY,
  ),
  swift: onFirstUse(
    () => (require('./swift/swift.routes.ts') as typeof import('./swift/swift.routes.ts')).SWIFT_REGISTRY,
  ),
};
