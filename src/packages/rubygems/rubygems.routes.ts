// The RubyGems registry under /api/packages/{owner}/rubygems (Forgejo: routers/api/packages/api.go, the rubygems
// group): `gem push` and `gem yank` under api/v1/gems, the specs lists, the dependency API RubyGems 3.3 resolves
// with, the compact index Bundler reads (`versions`, `info/NAME`; Forgejo serves no `names`), quick specifications
// and downloads. `gem` shows failures as text.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  compactInfo,
  compactVersions,
  dependencies,
  downloadGem,
  pushGem,
  quickSpecification,
  specsFile,
  yankGem,
} from './rubygems-handlers.ts';

export const RUBYGEMS_REGISTRY: RegistryTable = {
  errors: 'text',
  routes: [
    registryRoute('POST', /^\/api\/v1\/gems\/?$/, packageWriter(), pushGem),
    registryRoute('DELETE', /^\/api\/v1\/gems\/yank\/?$/, packageWriter(), yankGem),
    registryRoute('GET', /^\/api\/v1\/dependencies\/?$/, packageReader(), dependencies),
    registryRoute('GET', /^\/(?<kind>specs|latest_specs|prerelease_specs)\.4\.8\.gz$/, packageReader(), specsFile),
    registryRoute('GET', /^\/versions$/, packageReader(), compactVersions),
    registryRoute('GET', /^\/info\/(?<name>[^/]+)$/, packageReader(), compactInfo),
    registryRoute('GET', /^\/quick\/Marshal\.4\.8\/(?<filename>[^/]+)$/, packageReader(), quickSpecification),
    registryRoute('GET', /^\/gems\/(?<filename>[^/]+)$/, packageReader(), downloadGem),
  ],
};
