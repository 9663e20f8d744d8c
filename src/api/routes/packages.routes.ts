// Routes for packages (Forgejo: routers/api/v1/api.go the /packages/{username} group, routers/api/packages/api.go
// the generic registry). The owner is resolved first (an owner the caller may not see is 404), then the access
// level on its packages decides: read to look, write to upload and delete.
import { userAssignment } from '../assignment.ts';
import { reqPackageAccess, reqToken } from '../guards.ts';
import {
  genericPackageDelete,
  genericPackageDeleteFile,
  genericPackageDownload,
  genericPackageUpload,
} from '../handlers/package/generic.ts';
import { deletePackage, getPackage, listPackageFiles, listPackages } from '../handlers/package/package.ts';
import { route, type RouteGroup } from '../route.ts';

export type PackagesOperation =
  | 'deletePackage'
  | 'genericPackageDelete'
  | 'genericPackageDeleteFile'
  | 'genericPackageDownload'
  | 'genericPackageUpload'
  | 'getPackage'
  | 'listPackageFiles'
  | 'listPackages';

/** The API: signed in for every call. */
const apiReader = [userAssignment('owner'), reqToken(), reqPackageAccess('read')];
const apiWriter = [userAssignment('owner'), reqToken(), reqPackageAccess('write')];
/** The registry: anonymous downloads of what is public; writes by the owner, its teams, or a site admin. */
const registryReader = [userAssignment('owner'), reqPackageAccess('read')];
const registryWriter = [userAssignment('owner'), reqToken(), reqPackageAccess('write')];

export const packagesRoutes: RouteGroup<PackagesOperation> = {
  deletePackage: route(apiWriter, deletePackage),
  genericPackageDelete: route(registryWriter, genericPackageDelete),
  genericPackageDeleteFile: route(registryWriter, genericPackageDeleteFile),
  genericPackageDownload: route(registryReader, genericPackageDownload),
  genericPackageUpload: route(registryWriter, genericPackageUpload),
  getPackage: route(apiReader, getPackage),
  listPackageFiles: route(apiReader, listPackageFiles),
  listPackages: route(apiReader, listPackages),
};
