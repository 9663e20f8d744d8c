// The Vagrant registry under /api/packages/{owner}/vagrant (Forgejo: routers/api/packages/api.go, the vagrant
// group): /authenticate, the box's metadata document at /{name}, and its files at /{name}/{version}/{provider}.box.
// Vagrant reads failures as `{"errors": [message]}`.
import { ownerAssignment, packageReader, packageWriter, reqToken } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { boxMetadata, checkAuthenticate, downloadBox, uploadBox } from './vagrant-handlers.ts';

const BOX = String.raw`/(?<name>[^/]+)`;
const FILE = String.raw`${BOX}/(?<version>[^/]+)/(?<provider>[^/]+)`;

export const VAGRANT_REGISTRY: RegistryTable = {
  errors: (res, _status, message) => void res.json({ errors: [message] }),
  routes: [
    registryRoute('GET', /^\/authenticate$/, [ownerAssignment(), reqToken()], checkAuthenticate),
    registryRoute('GET', new RegExp(`^${BOX}$`), packageReader(), boxMetadata),
    registryRoute('GET', new RegExp(`^${FILE}$`), packageReader(), downloadBox),
    registryRoute('PUT', new RegExp(`^${FILE}$`), packageWriter(), uploadBox),
  ],
};
