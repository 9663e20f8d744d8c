// The Chef registry under /api/packages/{owner}/chef (Forgejo: routers/api/packages/api.go, the chef group): the
// Supermarket API v1 that knife (`knife[:supermarket_site]`) and Berkshelf read, with requests signed by the
// user's key (src/packages/chef/chef-auth.ts) besides the API's credentials. Failures are
// `{"error_messages": […]}`.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import { chefSignedCaller } from './chef-auth.ts';
import { chefError } from './chef-documents.ts';
import {
  deleteCookbook,
  deleteCookbookVersion,
  downloadCookbook,
  getCookbook,
  getCookbookVersion,
  getUniverse,
  listCookbooks,
  uploadCookbook,
} from './chef-handlers.ts';

const read = packageReader();
const write = packageWriter();
const NAME = String.raw`(?<name>[^/]+)`;
const VERSION = String.raw`(?<version>[^/]+)`;
const path = (...parts: string[]) => new RegExp(`^/api/v1/${parts.join('/')}/?$`);

export const CHEF_REGISTRY: RegistryTable = {
  errors: (res, _status, message) => res.json(chefError(message)),
  authenticate: chefSignedCaller,
  routes: [
    registryRoute('GET', path('universe'), read, getUniverse),
    registryRoute('GET', path('search'), read, listCookbooks),
    registryRoute('GET', path('cookbooks'), read, listCookbooks),
    registryRoute('POST', path('cookbooks'), write, uploadCookbook),
    registryRoute('GET', path('cookbooks', NAME), read, getCookbook),
    registryRoute('DELETE', path('cookbooks', NAME), write, deleteCookbook),
    registryRoute('GET', path('cookbooks', NAME, 'versions', VERSION), read, getCookbookVersion),
    registryRoute('DELETE', path('cookbooks', NAME, 'versions', VERSION), write, deleteCookbookVersion),
    registryRoute('GET', path('cookbooks', NAME, 'versions', VERSION, 'download'), read, downloadCookbook),
  ],
};
