// The NuGet registry under /api/packages/{owner}/nuget (Forgejo: routers/api/packages/api.go, the nuget group):
// the V3 service index and its resources, push and delete, the symbol server, and the V2 feed. The client sends
// its API key in X-NuGet-ApiKey and other credentials only when challenged, so anonymous reads of an owner it may
// not see are challenged (401); it reads failures as `{"Message": …}`.
import { ownerAssignment, packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  deleteVersion,
  downloadPackageFile,
  downloadSymbolFile,
  getRegistrationIndex,
  getRegistrationLeaf,
  getServiceIndex,
  getVersionList,
  pushPackage,
  pushSymbolPackage,
  searchV3,
} from './nuget-handlers.ts';
import { findPackagesById, getMetadata, getPackages, getServiceDocument, search } from './nuget-v2-handlers.ts';

const CHALLENGE = { challengeAnonymous: true };
const read = packageReader(CHALLENGE);
const write = packageWriter(CHALLENGE);
// The service documents tell nothing of the packages; the client reads them before it has credentials.
const discover = [ownerAssignment(CHALLENGE)];

const SEGMENT = (name: string) => String.raw`(?<${name}>[^/]+)`;
const path = (...parts: string[]) => new RegExp(`^/${parts.join('/')}$`);
/** An OData function or entity set: `Name(args)`, with `/$count` after it; brackets and `$` may be encoded. */
const odata = (name: string) =>
  new RegExp(String.raw`^/${name}(?:\(|%28)(?<args>[^/]*)(?:\)|%29)(?<count>/(?:\$|%24)count)?$`);

export const NUGET_REGISTRY: RegistryTable = {
  errors: (_status, message) => ({ Message: message }),
  apiKeyHeader: 'x-nuget-apikey',
  routes: [
    registryRoute('GET', /^\/?$/, discover, getServiceDocument),
    registryRoute('PUT', /^\/?$/, write, pushPackage),
    registryRoute('GET', path('index.json'), discover, getServiceIndex),
    registryRoute('GET', /^\/(?:\$|%24)metadata$/, discover, getMetadata),
    registryRoute('GET', path('query'), read, searchV3),
    registryRoute('PUT', path('symbolpackage'), write, pushSymbolPackage),
    registryRoute('GET', path('registration', SEGMENT('id'), 'index.json'), read, getRegistrationIndex),
    registryRoute(
      'GET',
      path('registration', SEGMENT('id'), String.raw`(?<version>[^/]+)\.json`),
      read,
      getRegistrationLeaf,
    ),
    registryRoute('GET', path('package', SEGMENT('id'), 'index.json'), read, getVersionList),
    registryRoute(
      'GET',
      path('package', SEGMENT('id'), SEGMENT('version'), SEGMENT('filename')),
      read,
      downloadPackageFile,
    ),
    registryRoute(
      'GET',
      path('symbols', SEGMENT('filename'), String.raw`(?<guid>[0-9a-fA-F]{32}[fF]{8})`, SEGMENT('filename2')),
      read,
      downloadSymbolFile,
    ),
    registryRoute('GET', odata('Packages'), read, getPackages),
    registryRoute('GET', odata('Search'), read, search),
    registryRoute('GET', odata('FindPackagesById'), read, findPackagesById),
    registryRoute('DELETE', path(SEGMENT('id'), SEGMENT('version')), write, deleteVersion),
  ],
};
