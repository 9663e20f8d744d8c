// The package registries served under /api/packages/{owner}/{type}/…, by type: each registry's route table
// (src/packages/<type>/), run by the core's router (src/packages/core/registry-router.ts) with the API's guard
// vocabulary. The generic registry is declared in the API's contract instead (src/api/routes/packages.routes.ts).
import { ARCH_REGISTRY } from './arch/arch.routes.ts';
import { CARGO_REGISTRY } from './cargo/cargo.routes.ts';
import { CHEF_REGISTRY } from './chef/chef.routes.ts';
import { COMPOSER_REGISTRY } from './composer/composer.routes.ts';
import { CONDA_REGISTRY } from './conda/conda.routes.ts';
import type { RegistryTable } from './core/registry-route.ts';
import { ALPINE_REGISTRY } from './alpine/alpine.routes.ts';
import { CRAN_REGISTRY } from './cran/cran.routes.ts';
import { HELM_REGISTRY } from './helm/helm.routes.ts';
import { DEBIAN_REGISTRY } from './debian/debian.routes.ts';
import { GO_REGISTRY } from './go/go.routes.ts';
import { MAVEN_REGISTRY } from './maven/maven.routes.ts';
import { npmRegistry } from './npm/npm-routes.ts';
import { NUGET_REGISTRY } from './nuget/nuget.routes.ts';
import { PUB_REGISTRY } from './pub/pub.routes.ts';
import { PYPI_REGISTRY } from './pypi/pypi.routes.ts';
import { VAGRANT_REGISTRY } from './vagrant/vagrant.routes.ts';
import { RPM_REGISTRY, RPM_ROOT_CONFIG } from './rpm/rpm.routes.ts';
import { RUBYGEMS_REGISTRY } from './rubygems/rubygems.routes.ts';
import { SWIFT_REGISTRY } from './swift/swift.routes.ts';

export const PACKAGE_REGISTRIES: Readonly<Record<string, RegistryTable>> = {
  alpine: ALPINE_REGISTRY,
  helm: HELM_REGISTRY,
  arch: ARCH_REGISTRY,
  cargo: CARGO_REGISTRY,
  chef: CHEF_REGISTRY,
  composer: COMPOSER_REGISTRY,
  cran: CRAN_REGISTRY,
  conda: CONDA_REGISTRY,
  debian: DEBIAN_REGISTRY,
  go: GO_REGISTRY,
  maven: MAVEN_REGISTRY,
  npm: npmRegistry,
  nuget: NUGET_REGISTRY,
  pub: PUB_REGISTRY,
  pypi: PYPI_REGISTRY,
  vagrant: VAGRANT_REGISTRY,
  rpm: RPM_REGISTRY,
  'rpm.repo': RPM_ROOT_CONFIG,
  rubygems: RUBYGEMS_REGISTRY,
  swift: SWIFT_REGISTRY,
};
