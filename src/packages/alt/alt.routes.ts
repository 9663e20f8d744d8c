// The ALT registry under /api/packages/{owner}/alt (Forgejo: routers/api/packages/api.go, the alt group): apt-rpm
// reads {group}.repo/{arch}/base/… and downloads {group}.repo/{arch}/RPMS.classic/…, where the ungrouped repository
// is named "alt"; publishers PUT {group}/upload (or /upload) and DELETE a package's file. The group may have several
// segments. apt-rpm shows failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  deletePackage,
  downloadPackage,
  repositoryConfig,
  repositoryFile,
  repositoryKey,
  uploadPackage,
} from './alt-handlers.ts';

const REPO = '^/(?<group>.+?)\\.repo/(?<arch>[^/]+)';
const PACKAGE = new RegExp(`${REPO}/RPMS\\.[^/]+/(?<filename>[^/]+)$`);

export const ALT_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('GET', /^\/repository\.key$/, packageReader(), repositoryKey),
    registryRoute('GET', /^\/(?<group>.+)\.repo$/, packageReader(), repositoryConfig),
    registryRoute('GET', new RegExp(`${REPO}/base/(?<filename>[^/]+)$`), packageReader(), repositoryFile),
    registryRoute('PUT', /^(?:\/(?<group>.+))?\/upload$/, packageWriter(), uploadPackage),
    registryRoute('GET', PACKAGE, packageReader(), downloadPackage),
    registryRoute('DELETE', PACKAGE, packageWriter(), deletePackage),
  ],
};
