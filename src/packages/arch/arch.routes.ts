// The Arch registry under /api/packages/{owner}/arch (Forgejo: routers/api/packages/api.go, the arch group):
// publishers PUT a package to {repository} (none: the registry's own repository), pacman reads
// {repository}/{arch}/{file} (databases, packages, signatures) and the key; DELETE {repository}/{name}/{version}/
// {arch}. A repository may have several segments. pacman shows failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { deletePackage, repositoryFile, repositoryKey, uploadPackage } from './arch-handlers.ts';

const REPOSITORY = '(?:/(?<repository>.+))?';

export const ARCH_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('GET', /^\/repository\.key$/, packageReader(), repositoryKey),
    registryRoute('PUT', /^(?:\/(?<repository>.+?))?\/?$/, packageWriter(), uploadPackage),
    registryRoute(
      'GET',
      new RegExp(`^${REPOSITORY}/(?<arch>[^/]+)/(?<filename>[^/]+)$`),
      packageReader(),
      repositoryFile,
    ),
    registryRoute(
      'DELETE',
      new RegExp(`^${REPOSITORY}/(?<name>[^/]+)/(?<version>[^/]+)/(?<arch>[^/]+)$`),
      packageWriter(),
      deletePackage,
    ),
  ],
};
