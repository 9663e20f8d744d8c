// The Conan registry under /api/packages/{owner}/conan (Forgejo: routers/api/packages/api.go, the conan group): the
// v1 and v2 APIs, each with ping, the token exchange under users/ and recipe search; v1's snapshots, upload and
// download addresses and its files under v1/files; v2's revisions. Failures are `{"message": …}`. The client sends
// credentials once challenged, so anonymous callers of a registry they may not read get 401, not 404.
import { ownerAssignment, packageReader, packageWriter, reqPackageAccess, reqToken } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { authenticate, checkCredentials, downloadFile, ping, searchRecipes, uploadFile } from './conan-handlers.ts';
import { conanTokenCaller } from './conan-token.ts';
import * as v1 from './conan-v1-handlers.ts';
import * as v2 from './conan-v2-handlers.ts';

const CHALLENGE = { challengeAnonymous: true };
const read = packageReader(CHALLENGE);
const write = packageWriter(CHALLENGE);
const signedIn = [ownerAssignment(CHALLENGE), reqToken(), reqPackageAccess('read')];

const REF = String.raw`(?<name>[^/]+)/(?<version>[^/]+)/(?<user>[^/]+)/(?<channel>[^/]+)`;
const path = (...parts: string[]) => new RegExp(`^/${parts.join('/')}$`);
const conans = (api: 'v1' | 'v2', ...parts: string[]) => path(api, 'conans', REF, ...parts);
const RREV = String.raw`revisions/(?<rrev>[^/]+)`;
const PREF = String.raw`packages/(?<pref>[^/]+)`;
const PREV = String.raw`revisions/(?<prev>[^/]+)`;
const FILE = String.raw`(?<filename>[^/]+)`;
const V1_FILES = String.raw`v1/files/${REF}/(?<rrev>[^/]+)`;

const common = (api: 'v1' | 'v2') => [
  registryRoute('GET', path(api, 'ping'), read, ping),
  registryRoute('GET', path(api, 'users', 'authenticate'), signedIn, authenticate),
  registryRoute('GET', path(api, 'users', 'check_credentials'), read, checkCredentials),
  registryRoute('GET', path(api, 'conans', 'search'), read, searchRecipes),
];

export const CONAN_REGISTRY: RegistryTable = {
  errors: (res, _status, message) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ message }));
  },
  authenticate: conanTokenCaller,
  routes: [
    ...common('v1'),
    registryRoute('GET', conans('v1'), read, v1.snapshot),
    registryRoute('DELETE', conans('v1'), write, v1.deleteRecipe),
    registryRoute('GET', conans('v1', 'search'), read, v1.searchPackages),
    registryRoute('GET', conans('v1', 'digest'), read, v1.downloadUrls),
    registryRoute('GET', conans('v1', 'download_urls'), read, v1.downloadUrls),
    registryRoute('POST', conans('v1', 'upload_urls'), write, v1.uploadUrls),
    registryRoute('POST', conans('v1', 'packages', 'delete'), write, v1.deletePackages),
    registryRoute('GET', conans('v1', PREF), read, v1.snapshot),
    registryRoute('GET', conans('v1', PREF, 'digest'), read, v1.downloadUrls),
    registryRoute('GET', conans('v1', PREF, 'download_urls'), read, v1.downloadUrls),
    registryRoute('POST', conans('v1', PREF, 'upload_urls'), write, v1.uploadUrls),
    registryRoute('GET', path(V1_FILES, 'recipe', FILE), read, downloadFile),
    registryRoute('PUT', path(V1_FILES, 'recipe', FILE), write, uploadFile),
    registryRoute('GET', path(V1_FILES, 'package', '(?<pref>[^/]+)', '(?<prev>[^/]+)', FILE), read, downloadFile),
    registryRoute('PUT', path(V1_FILES, 'package', '(?<pref>[^/]+)', '(?<prev>[^/]+)', FILE), write, uploadFile),

    ...common('v2'),
    registryRoute('DELETE', conans('v2'), write, v2.deleteRecipe),
    registryRoute('GET', conans('v2', 'search'), read, v2.searchPackages),
    registryRoute('GET', conans('v2', 'latest'), read, v2.latestRecipeRevision),
    registryRoute('GET', conans('v2', 'revisions'), read, v2.listRecipeRevisions),
    registryRoute('DELETE', conans('v2', RREV), write, v2.deleteRecipe),
    registryRoute('GET', conans('v2', RREV, 'search'), read, v2.searchPackages),
    registryRoute('GET', conans('v2', RREV, 'files'), read, v2.listRevisionFiles),
    registryRoute('GET', conans('v2', RREV, 'files', FILE), read, downloadFile),
    registryRoute('PUT', conans('v2', RREV, 'files', FILE), write, uploadFile),
    registryRoute('DELETE', conans('v2', RREV, 'packages'), write, v2.deletePackages),
    registryRoute('DELETE', conans('v2', RREV, PREF), write, v2.deletePackages),
    registryRoute('GET', conans('v2', RREV, PREF, 'latest'), read, v2.latestPackageRevision),
    registryRoute('GET', conans('v2', RREV, PREF, 'revisions'), read, v2.listPackageRevisions),
    registryRoute('DELETE', conans('v2', RREV, PREF, PREV), write, v2.deletePackages),
    registryRoute('GET', conans('v2', RREV, PREF, PREV, 'files'), read, v2.listRevisionFiles),
    registryRoute('GET', conans('v2', RREV, PREF, PREV, 'files', FILE), read, downloadFile),
    registryRoute('PUT', conans('v2', RREV, PREF, PREV, 'files', FILE), write, uploadFile),
  ],
};
