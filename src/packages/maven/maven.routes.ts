// The Maven registry under /api/packages/{owner}/maven (Forgejo: routers/api/packages/api.go, the maven group):
// the repository layout `group/path/artifact/version/file`, read with GET and HEAD, deployed with PUT. Maven reads
// only the status of a failure.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { downloadPackageFile, uploadPackageFile } from './maven-handlers.ts';

// Maven sends credentials on reads only when challenged; pip too when they come from a keyring or .netrc.
const CHALLENGE = { challengeAnonymous: true };

const ANY_PATH = /^\/(?<path>.+)$/;

export const MAVEN_REGISTRY: RegistryTable = {
  errors: 'status',
  routes: [
    registryRoute('GET', ANY_PATH, packageReader(CHALLENGE), downloadPackageFile),
    registryRoute('HEAD', ANY_PATH, packageReader(CHALLENGE), downloadPackageFile),
    registryRoute('PUT', ANY_PATH, packageWriter(CHALLENGE), uploadPackageFile),
  ],
};
