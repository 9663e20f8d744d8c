// Routes for packages. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

export type PackagesOperation =
  | 'deletePackage'
  | 'genericPackageDelete'
  | 'genericPackageDeleteFile'
  | 'genericPackageDownload'
  | 'genericPackageUpload'
  | 'getPackage'
  | 'listPackageFiles'
  | 'listPackages';

export const packagesRoutes: RouteGroup<PackagesOperation> = {
  deletePackage: notImplemented(),
  genericPackageDelete: notImplemented(),
  genericPackageDeleteFile: notImplemented(),
  genericPackageDownload: notImplemented(),
  genericPackageUpload: notImplemented(),
  getPackage: notImplemented(),
  listPackageFiles: notImplemented(),
  listPackages: notImplemented(),
};
