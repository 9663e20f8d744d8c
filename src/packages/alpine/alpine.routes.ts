// The Alpine registry under /api/packages/{owner}/alpine (Forgejo: routers/api/packages/api.go, the alpine group):
// apk reads {branch}/{repository}/{architecture}/APKINDEX.tar.gz and the packages beside it; uploads are a PUT to
// {branch}/{repository}; /key is the owner's public key. Failures are plain text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { alpineKey, apkIndex, deleteApk, downloadApk, uploadApk } from './alpine-handlers.ts';

const REPO = '/(?<branch>[^/]+)/(?<repository>[^/]+)';
const FILE = `${REPO}/(?<architecture>[^/]+)/(?<filename>[^/]+\\.apk)`;

export const ALPINE_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('GET', /^\/key$/, packageReader(), alpineKey),
    registryRoute('PUT', new RegExp(`^${REPO}/?$`), packageWriter(), uploadApk),
    registryRoute('GET', new RegExp(`^${REPO}/(?<architecture>[^/]+)/APKINDEX\\.tar\\.gz$`), packageReader(), apkIndex),
    registryRoute('GET', new RegExp(`^${FILE}$`), packageReader(), downloadApk),
    registryRoute('DELETE', new RegExp(`^${FILE}$`), packageWriter(), deleteApk),
  ],
};
