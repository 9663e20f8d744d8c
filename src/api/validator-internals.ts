// Modules inside express-openapi-validator 5.6 that Anvil routes around (validator-patches.ts,
// contract-route-lookup.ts), loaded from the library's own folder so they are the instances it uses.
import path from 'node:path';

export type ValidatorModule = Record<string, unknown> & { __anvilPatched?: boolean };

const validatorDir = path.dirname(require.resolve('express-openapi-validator'));

/** A file of the library, by its path below dist/. */
export function validatorModule(relative: string): ValidatorModule {
  return require(path.join(validatorDir, relative)) as ValidatorModule;
}

/** A package as the library resolves it. */
export function validatorDependency(name: string): ValidatorModule {
  return require(require.resolve(name, { paths: [validatorDir] })) as ValidatorModule;
}
