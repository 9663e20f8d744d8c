// The package registries served under /api/packages/{owner}/{type}/…, by type: each registry's route table
// (src/packages/<type>/), run by the core's router (src/packages/core/registry-router.ts) with the API's guard
// vocabulary. The generic registry is declared in the API's contract instead (src/api/routes/packages.routes.ts).
import { CARGO_REGISTRY } from './cargo/cargo.routes.ts';
import { COMPOSER_REGISTRY } from './composer/composer.routes.ts';
import type { RegistryTable } from './core/registry-route.ts';
import { GO_REGISTRY } from './go/go.routes.ts';
import { MAVEN_REGISTRY } from './maven/maven.routes.ts';
import { npmRegistry } from './npm/npm-routes.ts';
import { NUGET_REGISTRY } from './nuget/nuget.routes.ts';
import { PYPI_REGISTRY } from './pypi/pypi.routes.ts';
import { RUBYGEMS_REGISTRY } from './rubygems/rubygems.routes.ts';

export const PACKAGE_REGISTRIES: Readonly<Record<string, RegistryTable>> = {
  cargo: CARGO_REGISTRY,
  composer: COMPOSER_REGISTRY,
  go: GO_REGISTRY,
  maven: MAVEN_REGISTRY,
  npm: npmRegistry,
  nuget: NUGET_REGISTRY,
  pypi: PYPI_REGISTRY,
  rubygems: RUBYGEMS_REGISTRY,
};
