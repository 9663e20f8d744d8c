// The package registries served under /api/packages/{owner}/{type}/…, by type: each registry's route table
// (src/packages/<type>/), run by the core's router (src/packages/core/registry-router.ts) with the API's guard
// vocabulary. The generic registry is declared in the API's contract instead (src/api/routes/packages.routes.ts).
import { ARCH_REGISTRY } from './arch/arch.routes.ts';
import type { RegistryTable } from './core/registry-route.ts';
import { MAVEN_REGISTRY } from './maven/maven.routes.ts';
import { npmRegistry } from './npm/npm-routes.ts';
import { PYPI_REGISTRY } from './pypi/pypi.routes.ts';
import { RPM_REGISTRY, RPM_ROOT_CONFIG } from './rpm/rpm.routes.ts';

export const PACKAGE_REGISTRIES: Readonly<Record<string, RegistryTable>> = {
  arch: ARCH_REGISTRY,
  maven: MAVEN_REGISTRY,
  npm: npmRegistry,
  pypi: PYPI_REGISTRY,
  rpm: RPM_REGISTRY,
  'rpm.repo': RPM_ROOT_CONFIG,
};
