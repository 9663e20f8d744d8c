// The RPM registry under /api/packages/{owner}/rpm (Forgejo: routers/api/packages/api.go, the rpm group): dnf reads
// {group}.repo, repository.key and {group}/repodata/…, downloads {group}/package/…; publishers PUT {group}/upload and
// DELETE packages. The group is optional (the ungrouped repository sits at the registry's root) and may have
// several segments. dnf shows failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  deletePackage,
  downloadPackage,
  repositoryConfig,
  repositoryFile,
  repositoryKey,
  uploadPackage,
} from './rpm-handlers.ts';

const GROUP = '(?:/(?<group>.+))?';
const PACKAGE = `${GROUP}/package/(?<name>[^/]+)/(?<version>[^/]+)/(?<arch>[^/]+)`;

export const RPM_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('GET', /^\/repository\.key$/, packageReader(), repositoryKey),
    registryRoute('GET', new RegExp(`^${GROUP}/repodata/(?<filename>[^/]+)$`), packageReader(), repositoryFile),
    registryRoute('PUT', new RegExp(`^${GROUP}/upload$`), packageWriter(), uploadPackage),
    registryRoute('GET', new RegExp(`^${PACKAGE}(?:/[^/]+)?$`), packageReader(), downloadPackage),
    registryRoute('DELETE', new RegExp(`^${PACKAGE}$`), packageWriter(), deletePackage),
    registryRoute('GET', /^\/(?<group>.+)\.repo$/, packageReader(), repositoryConfig),
  ],
};

/** /api/packages/{owner}/rpm.repo: the ungrouped repository's .repo file, beside the registry as Forgejo has it. */
export const RPM_ROOT_CONFIG: RegistryTable = {
  errors: 'text',
  routes: [registryRoute('GET', /^$/, packageReader(), repositoryConfig)],
};
