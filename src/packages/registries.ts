// The package registries served under /api/packages/{owner}/{type}/…, by type: each registry's route table
// (src/packages/<type>/), run by the core's router (src/packages/core/registry-router.ts) with the API's guard
// vocabulary. The generic registry is declared in the API's contract instead (src/api/routes/packages.routes.ts).
import type { RegistryTable } from './core/registry-route.ts';
import { HELM_REGISTRY } from './helm/helm.routes.ts';
import { MAVEN_REGISTRY } from './maven/maven.routes.ts';
import { npmRegistry } from './npm/npm-routes.ts';
import { NUGET_REGISTRY } from './nuget/nuget.routes.ts';
import { PUB_REGISTRY } from './pub/pub.routes.ts';
import { PYPI_REGISTRY } from './pypi/pypi.routes.ts';

export const PACKAGE_REGISTRIES: Readonly<Record<string, RegistryTable>> = {
  helm: HELM_REGISTRY,
  maven: MAVEN_REGISTRY,
  npm: npmRegistry,
  nuget: NUGET_REGISTRY,
  pub: PUB_REGISTRY,
  pypi: PYPI_REGISTRY,
};
