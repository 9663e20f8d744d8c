// The pub registry under /api/packages/{owner}/pub (Forgejo: routers/api/packages/api.go, the pub group), the
// hosted-repository API v2 that `dart pub` speaks (Accept: application/vnd.pub.v2+json, the token as Bearer):
// the three-step upload under api/packages/versions/new, and a package's versions and archives. Failures are
// `{"error": {"code", "message"}}`.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { pubError } from './pub-documents.ts';
import {
  downloadArchive,
  finalizeUpload,
  getPackage,
  getVersion,
  requestUpload,
  uploadArchive,
} from './pub-handlers.ts';

const read = packageReader();
const write = packageWriter();
const SEGMENT = (name: string) => String.raw`(?<${name}>[^/]+)`;
const path = (...parts: string[]) => new RegExp(`^/api/packages/${parts.join('/')}$`);

export const PUB_REGISTRY: RegistryTable = {
  errors: (res, status, message) => res.json(pubError(status, message)),
  routes: [
    registryRoute('GET', path('versions', 'new'), write, requestUpload),
    registryRoute('POST', path('versions', 'new', 'upload'), write, uploadArchive),
    registryRoute(
      'GET',
      path('versions', 'new', 'finalize', SEGMENT('name'), SEGMENT('version')),
      write,
      finalizeUpload,
    ),
    registryRoute('GET', path(SEGMENT('name')), read, getPackage),
    registryRoute('GET', path(SEGMENT('name'), 'files', String.raw`(?<version>[^/]+)\.tar\.gz`), read, downloadArchive),
    registryRoute('GET', path(SEGMENT('name'), 'versions', SEGMENT('version')), read, getVersion),
    registryRoute('GET', path(SEGMENT('name'), SEGMENT('version')), read, getVersion),
  ],
};
