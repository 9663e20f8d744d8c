// The Swift registry under /api/packages/{owner}/swift (Forgejo: routers/api/packages/api.go, the swift group;
// SE-0292): `{scope}/{name}` lists releases, `{scope}/{name}/{version}` is a release's metadata (PUT publishes it),
// with `.zip` its source archive and `/Package.swift` its manifest; `identifiers?url=` looks packages up by
// repository URL. Each checks the Accept header the client sends against the API version's media type.
import { ownerAssignment, packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  acceptOnly,
  checkAuthenticate,
  downloadArchive,
  listReleases,
  lookupIdentifiers,
  manifest,
  publishRelease,
  releaseInfo,
  sendSwiftProblem,
  SWIFT_JSON,
  SWIFT_SOURCE,
  SWIFT_ZIP,
} from './swift-handlers.ts';

const PACKAGE = '^/(?<scope>[^/]+)/(?<name>[^/.]+)';
const at = (rest: string) => new RegExp(`${PACKAGE}${rest}$`);
const reading = (mediaType: string) => [...packageReader(), acceptOnly(mediaType)];

export const SWIFT_REGISTRY: RegistryTable = {
  errors: sendSwiftProblem,
  routes: [
    registryRoute('POST', /^\/?$/, [ownerAssignment()], checkAuthenticate),
    registryRoute('POST', /^\/login$/, [ownerAssignment()], checkAuthenticate),
    registryRoute('GET', /^\/identifiers$/, reading(SWIFT_JSON), lookupIdentifiers),
    registryRoute('GET', at('(?:\\.json)?'), reading(SWIFT_JSON), listReleases),
    registryRoute('GET', at('/(?<version>[^/]+)\\.json'), reading(SWIFT_JSON), releaseInfo),
    registryRoute('GET', at('/(?<version>[^/]+)\\.zip'), reading(SWIFT_ZIP), downloadArchive),
    registryRoute('GET', at('/(?<version>[^/]+)/Package\\.swift'), reading(SWIFT_SOURCE), manifest),
    registryRoute('GET', at('/(?<version>[^/]+)'), reading(SWIFT_JSON), releaseInfo),
    registryRoute('PUT', at('/(?<version>[^/]+)'), [...packageWriter(), acceptOnly(SWIFT_JSON)], publishRelease),
  ],
};
