// The PyPI registry under /api/packages/{owner}/pypi (Forgejo: routers/api/packages/api.go, the pypi group): twine
// uploads to the root, pip reads /simple/{name}/ and downloads /files/…. pip and twine show failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { downloadPackageFile, packageIndex, uploadPackageFile } from './pypi-handlers.ts';

// Maven sends credentials on reads only when challenged; pip too when they come from a keyring or .netrc.
const CHALLENGE = { challengeAnonymous: true };

export const PYPI_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('POST', /^\/?$/, packageWriter(CHALLENGE), uploadPackageFile),
    registryRoute('GET', /^\/simple\/(?<name>[^/]+)\/?$/, packageReader(CHALLENGE), packageIndex),
    registryRoute(
      'GET',
      /^\/files\/(?<name>[^/]+)\/(?<version>[^/]+)\/(?<filename>[^/]+)$/,
      packageReader(CHALLENGE),
      downloadPackageFile,
    ),
  ],
};
