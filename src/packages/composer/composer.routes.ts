// The Composer repository under /api/packages/{owner}/composer (Forgejo: routers/api/packages/api.go, the
// /composer group): PUT of an archive to the root, the documents Composer reads, downloads. A download's package
// name is one segment (`vendor%2Fproject`) as the metadata links it, or two.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  composerError,
  downloadArchive,
  getPackageMetadata,
  getServiceIndex,
  listPackageNames,
  searchPackages,
  uploadArchive,
} from './composer-handlers.ts';

const read = packageReader();

export const COMPOSER_REGISTRY: RegistryTable = {
  errors: composerError,
  routes: [
    registryRoute('PUT', /^\/?$/, packageWriter(), uploadArchive),
    registryRoute('GET', /^\/packages\.json$/, read, getServiceIndex),
    registryRoute('GET', /^\/search\.json$/, read, searchPackages),
    registryRoute('GET', /^\/list\.json$/, read, listPackageNames),
    registryRoute('GET', /^\/p2\/(?<vendor>[^/]+)\/(?<project>[^/~]+?)(?<dev>~dev)?\.json$/, read, getPackageMetadata),
    registryRoute(
      'GET',
      /^\/files\/(?<package>[^/]+(?:\/[^/]+)?)\/(?<version>[^/]+)\/(?<filename>[^/]+)$/,
      read,
      downloadArchive,
    ),
  ],
};
