// The npm registry's routes under /api/packages/{owner}/npm (Forgejo: routers/api/packages/api.go, the /npm group).
// A package is named `name` or `@scope/name`; npm sends the scope's slash encoded (`@scope%2fname`) in package
// paths and plain in tarball paths, so both are matched. Reads need read on the owner's packages, changes write.
import { packageReader, packageWriter, reqToken, ownerAssignment } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  deletePackage,
  deleteVersion,
  deleteVersionByFileName,
  getPackument,
  getTarball,
  getTarballByFileName,
  putPackage,
  putRevision,
} from './npm-handlers.ts';
import { addDistTag, deleteDistTag, listDistTags, ping, searchPackages, whoami } from './npm-tag-handlers.ts';

const NAME = String.raw`(?<name>@[^/]+(?:/|%2[fF])[^/]+|[^/@\-][^/]*)`;
const SEGMENT = (group: string) => String.raw`(?<${group}>[^/]+)`;
const path = (...parts: string[]) => new RegExp(`^/${parts.join('/')}$`);

const read = packageReader();
const write = packageWriter();

export const npmRegistry: RegistryTable = {
  errors: 'json',
  routes: [
    registryRoute('GET', path('-', 'ping'), [ownerAssignment()], ping),
    registryRoute('GET', path('-', 'whoami'), [ownerAssignment(), reqToken()], whoami),
    registryRoute('GET', path('-', 'v1', 'search'), read, searchPackages),
    registryRoute('GET', path('-', 'package', NAME, 'dist-tags'), read, listDistTags),
    registryRoute('PUT', path('-', 'package', NAME, 'dist-tags', SEGMENT('tag')), write, addDistTag),
    registryRoute('DELETE', path('-', 'package', NAME, 'dist-tags', SEGMENT('tag')), write, deleteDistTag),
    registryRoute('GET', path(NAME), read, getPackument),
    registryRoute('PUT', path(NAME), write, putPackage),
    registryRoute('PUT', path(NAME, '-rev', SEGMENT('rev')), write, putRevision),
    registryRoute('DELETE', path(NAME, '-rev', SEGMENT('rev')), write, deletePackage),
    registryRoute('GET', path(NAME, '-', SEGMENT('version'), SEGMENT('filename')), read, getTarball),
    registryRoute(
      'DELETE',
      path(NAME, '-', SEGMENT('version'), SEGMENT('filename'), '-rev', SEGMENT('rev')),
      write,
      deleteVersion,
    ),
    // A scope's registry: npm unpublish strips only the default registry's path from the tarball URL.
    registryRoute(
      'DELETE',
      path(
        'api',
        'packages',
        '[^/]+',
        'npm',
        NAME,
        '-',
        SEGMENT('version'),
        SEGMENT('filename'),
        '-rev',
        SEGMENT('rev'),
      ),
      write,
      deleteVersion,
    ),
    registryRoute('GET', path(NAME, '-', SEGMENT('filename')), read, getTarballByFileName),
    registryRoute(
      'DELETE',
      path(NAME, '-', SEGMENT('filename'), '-rev', SEGMENT('rev')),
      write,
      deleteVersionByFileName,
    ),
  ],
};
