// The Conda registry under /api/packages/{owner}/conda (Forgejo: routers/api/packages/api.go, the conda group): a
// channel is the path before the subdir (none for the owner's default channel); conda reads
// {channel}/{subdir}/repodata.json and downloads {channel}/{subdir}/{file}; uploads are PUT to {channel}/{file}.
// Failures are JSON `{reason, message}`.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { channelData, listOrGetPackages, sendCondaError, uploadPackageFile } from './conda-handlers.ts';

export const CONDA_REGISTRY: RegistryTable = {
  errors: sendCondaError,
  routes: [
    registryRoute('GET', /^\/(?:(?<channel>.+)\/)?channeldata\.json$/, packageReader(), channelData),
    registryRoute(
      'GET',
      /^\/(?:(?<channel>.+)\/)?(?<subdir>[^/]+)\/(?<filename>[^/]+)$/,
      packageReader(),
      listOrGetPackages,
    ),
    registryRoute('PUT', /^\/(?:(?<channel>.+)\/)?(?<filename>[^/]+)$/, packageWriter(), uploadPackageFile),
  ],
};
