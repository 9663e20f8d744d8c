// The Debian registry under /api/packages/{owner}/debian (Forgejo: routers/api/packages/api.go, the debian group):
// apt reads dists/ and pool/, uploads go to pool/{distribution}/{component}/upload. Failures are plain text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { deleteDeb, downloadDeb, indexFile, indexFileByHash, repositoryKey, uploadDeb } from './debian-handlers.ts';

const SEGMENT = '[^/]+';
const DIST = `/dists/(?<distribution>${SEGMENT})`;
const LIST = `/(?<component>${SEGMENT})/binary-(?<architecture>${SEGMENT})`;
const BY_HASH = `/by-hash/(?<algorithm>${SEGMENT})/(?<hash>${SEGMENT})`;
const POOL = `/pool/(?<distribution>${SEGMENT})/(?<component>${SEGMENT})`;

export const DEBIAN_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('GET', /^\/repository\.key$/, packageReader(), repositoryKey),
    registryRoute('GET', new RegExp(`^${DIST}${BY_HASH}$`), packageReader(), indexFileByHash),
    registryRoute('GET', new RegExp(`^${DIST}${LIST}${BY_HASH}$`), packageReader(), indexFileByHash),
    registryRoute('GET', new RegExp(`^${DIST}/(?<file>Release|InRelease|Release\\.gpg)$`), packageReader(), indexFile),
    registryRoute('GET', new RegExp(`^${DIST}${LIST}/(?<file>Packages(?:\\.gz|\\.xz)?)$`), packageReader(), indexFile),
    registryRoute('PUT', new RegExp(`^${POOL}/upload$`), packageWriter(), uploadDeb),
    registryRoute(
      'GET',
      new RegExp(`^${POOL}/(?<name>[^/_]+)_(?<version>[^/_]+)_(?<architecture>[^/_]+)\\.deb$`),
      packageReader(),
      downloadDeb,
    ),
    registryRoute(
      'DELETE',
      new RegExp(`^${POOL}/(?<name>${SEGMENT})/(?<version>${SEGMENT})/(?<architecture>${SEGMENT})$`),
      packageWriter(),
      deleteDeb,
    ),
  ],
};
