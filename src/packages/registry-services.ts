// The package registries' services, each built at its first use: a registry's service loads its parsers, formats
// and signing with it, and most instances serve a few of the registries (src/packages/registries.ts loads their
// route tables the same way). The container registry's are built at start with the rest (src/app/create-services.ts).
import type { ServiceDeps } from '../services/service-deps.ts';
import type { HookEventsService } from '../services/hook-events.service.ts';
import type { PackageService } from '../services/package.service.ts';
import type { PushService } from '../services/push.service.ts';
import type { QuotaService } from '../services/quota.service.ts';
import type { RepositoryCreationService } from '../services/repository-creation.service.ts';
import type { PackageIndexes } from './core/repository-index.ts';
import type { PackageSigningKeys } from './core/signing-keys.ts';
import { builtAtFirstUse } from '../lib/on-first-use.ts';

/** What the registries' services are built with. */
export interface RegistryServiceParts {
  deps: ServiceDeps;
  quota: QuotaService;
  hookEvents: HookEventsService;
  packages: PackageService;
  packageIndexes: PackageIndexes;
  packageSigningKeys: PackageSigningKeys;
  repoCreation: RepositoryCreationService;
  pushes: PushService;
}

export function registryServices(parts: RegistryServiceParts) {
  const { deps, quota, hookEvents, packages, packageIndexes, packageSigningKeys, repoCreation, pushes } = parts;
  const services = builtAtFirstUse({
    pypi: () =>
      new (require('./pypi/pypi.service.ts') as typeof import('./pypi/pypi.service.ts')).PypiService(
        deps,
        quota,
        hookEvents,
      ),
    goModules: () =>
      new (require('./go/go.service.ts') as typeof import('./go/go.service.ts')).GoService(deps, quota, hookEvents),
    composer: () =>
      new (
        require('./composer/composer.service.ts') as typeof import('./composer/composer.service.ts')
      ).ComposerService(deps, quota, hookEvents),
    rubygems: () =>
      new (
        require('./rubygems/rubygems.service.ts') as typeof import('./rubygems/rubygems.service.ts')
      ).RubygemsService(deps, quota, hookEvents),
    cran: () =>
      new (require('./cran/cran.service.ts') as typeof import('./cran/cran.service.ts')).CranService(
        deps,
        quota,
        hookEvents,
      ),
    rpm: () =>
      new (require('./rpm/rpm.service.ts') as typeof import('./rpm/rpm.service.ts')).RpmService(
        deps,
        quota,
        hookEvents,
        packageIndexes,
        packageSigningKeys,
      ),
    arch: () =>
      new (require('./arch/arch.service.ts') as typeof import('./arch/arch.service.ts')).ArchService(
        deps,
        quota,
        hookEvents,
        packageIndexes,
      ),
    conda: () =>
      new (require('./conda/conda.service.ts') as typeof import('./conda/conda.service.ts')).CondaService(
        deps,
        quota,
        hookEvents,
      ),
    swift: () =>
      new (require('./swift/swift.service.ts') as typeof import('./swift/swift.service.ts')).SwiftService(
        deps,
        quota,
        hookEvents,
      ),
    maven: () =>
      new (require('./maven/maven.service.ts') as typeof import('./maven/maven.service.ts')).MavenService(
        deps,
        quota,
        hookEvents,
      ),
    npmPackages: () =>
      new (require('./npm/npm.service.ts') as typeof import('./npm/npm.service.ts')).NpmService(
        deps,
        quota,
        hookEvents,
      ),
    conan: () =>
      new (require('./conan/conan.service.ts') as typeof import('./conan/conan.service.ts')).ConanService(
        deps,
        quota,
        hookEvents,
      ),
    vagrant: () =>
      new (require('./vagrant/vagrant.service.ts') as typeof import('./vagrant/vagrant.service.ts')).VagrantService(
        deps,
        quota,
        hookEvents,
      ),
    nuget: () =>
      new (require('./nuget/nuget.service.ts') as typeof import('./nuget/nuget.service.ts')).NugetService(deps),
    helm: () =>
      new (require('./helm/helm.service.ts') as typeof import('./helm/helm.service.ts')).HelmService(
        deps,
        quota,
        hookEvents,
      ),
    pub: () =>
      new (require('./pub/pub.service.ts') as typeof import('./pub/pub.service.ts')).PubService(
        deps,
        quota,
        hookEvents,
      ),
    chef: () =>
      new (require('./chef/chef.service.ts') as typeof import('./chef/chef.service.ts')).ChefService(
        deps,
        quota,
        hookEvents,
        packages,
      ),
    chefKeys: () =>
      new (require('./chef/chef-keys.service.ts') as typeof import('./chef/chef-keys.service.ts')).ChefKeyService(deps),
    nugetPush: () =>
      new (require('./nuget/nuget-push.ts') as typeof import('./nuget/nuget-push.ts')).NugetPush(
        deps,
        quota,
        hookEvents,
      ),
    debian: () =>
      new (require('./debian/debian.service.ts') as typeof import('./debian/debian.service.ts')).DebianService(
        deps,
        quota,
        hookEvents,
        packageIndexes,
      ),
    alpine: () =>
      new (require('./alpine/alpine.service.ts') as typeof import('./alpine/alpine.service.ts')).AlpineService(
        deps,
        quota,
        hookEvents,
        packageIndexes,
      ),
    alt: () =>
      new (require('./alt/alt.service.ts') as typeof import('./alt/alt.service.ts')).AltService(
        deps,
        quota,
        hookEvents,
        packageIndexes,
      ),
    cargo: () => {
      const { CargoService } = require('./cargo/cargo.service.ts') as typeof import('./cargo/cargo.service.ts');
      const { CargoGitIndex } = require('./cargo/git-index.ts') as typeof import('./cargo/git-index.ts');
      return new CargoService(deps, quota, hookEvents, new CargoGitIndex(deps, repoCreation, pushes));
    },
  });
  // A Cargo version deleted through the package API leaves the owner's git index too.
  packages.onVersionDeleted('cargo', (doer, owner, name) => services.cargo.indexChanged(doer, owner, name));
  return services;
}

export type RegistryServices = ReturnType<typeof registryServices>;
