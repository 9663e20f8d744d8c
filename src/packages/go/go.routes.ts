// The Go module proxy under /api/packages/{owner}/go (Forgejo: routers/api/packages/api.go, the /go group): the
// proxy protocol's reads below the module path (which has slashes), and PUT /upload of a module zip. The go
// command shows a failure's body as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { downloadZip, goMod, latestInfo, listVersions, uploadModule, versionInfo } from './go-handlers.ts';

const MODULE = String.raw`(?<module>[^@]+?)`;
const VERSION = String.raw`(?<version>[^/]+)`;
const read = packageReader();

export const GO_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('PUT', /^\/upload$/, packageWriter(), uploadModule),
    registryRoute('GET', new RegExp(`^/${MODULE}/@v/list$`), read, listVersions),
    registryRoute('GET', new RegExp(`^/${MODULE}/@v/${VERSION}\\.info$`), read, versionInfo),
    registryRoute('GET', new RegExp(`^/${MODULE}/@v/${VERSION}\\.mod$`), read, goMod),
    registryRoute('GET', new RegExp(`^/${MODULE}/@v/${VERSION}\\.zip$`), read, downloadZip),
    registryRoute('GET', new RegExp(`^/${MODULE}/@latest$`), read, latestInfo),
  ],
};
