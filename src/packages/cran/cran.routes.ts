// The CRAN registry under /api/packages/{owner}/cran (Forgejo: routers/api/packages/api.go, the cran group): the
// source tree src/contrib and the binary trees bin/<platform>/contrib/<rversion>, each with its PACKAGES index, and
// uploads with PUT src and PUT bin?platform=&rversion=. R shows failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { downloadPackage, packagesIndex, uploadBinary, uploadSource } from './cran-handlers.ts';

const BIN = String.raw`\/bin\/(?<platform>[^/]+)\/contrib\/(?<rversion>[^/]+)`;

export const CRAN_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('PUT', /^\/src\/?$/, packageWriter(), uploadSource),
    registryRoute('PUT', /^\/bin\/?$/, packageWriter(), uploadBinary),
    registryRoute('GET', /^\/src\/contrib\/PACKAGES(?<format>\.gz)?$/, packageReader(), packagesIndex),
    registryRoute('GET', /^\/src\/contrib\/(?<filename>[^/]+)$/, packageReader(), downloadPackage),
    registryRoute('GET', /^\/src\/contrib\/Archive\/[^/]+\/(?<filename>[^/]+)$/, packageReader(), downloadPackage),
    registryRoute('GET', new RegExp(`^${BIN}/PACKAGES(?<format>\\.gz)?$`), packageReader(), packagesIndex),
    registryRoute('GET', new RegExp(`^${BIN}/(?<filename>[^/]+)$`), packageReader(), downloadPackage),
  ],
};
