// The Helm registry under /api/packages/{owner}/helm (Forgejo: routers/api/packages/api.go, the helm group): the
// repository's index.yaml, its charts by file name, and uploads to api/charts (ChartMuseum's path, which the
// helm-push plugin posts to). Failures are JSON `{"error": …}`.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { downloadChart, getIndex, uploadChart } from './helm-handlers.ts';

export const HELM_REGISTRY: RegistryTable = {
  errors: 'json',
  routes: [
    registryRoute('GET', /^\/index\.yaml$/, packageReader(), getIndex),
    registryRoute('POST', /^\/api\/charts\/?$/, packageWriter(), uploadChart),
    registryRoute('GET', /^\/(?<filename>[^/]+\.tgz)$/, packageReader(), downloadChart),
  ],
};
