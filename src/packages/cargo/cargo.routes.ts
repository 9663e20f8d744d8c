// The Cargo registry under /api/packages/{owner}/cargo (Forgejo: routers/api/packages/api.go, the cargo group): the
// sparse index (`config.json` and the crates' files) and the web API under /api/v1/crates. cargo reads failures as
// `{"errors": [{"detail": …}]}`. Anonymous readers of a registry they may not read are challenged: cargo asks for
// config.json without its token first and sends the token once refused with 401.
import { packageReader, packageWriter } from '../core/registry-guards.ts';
import { registryRoute, type RegistryTable } from '../core/registry-route.ts';
import {
  downloadCrate,
  getConfig,
  getIndexFile,
  listOwners,
  publishCrate,
  searchCrates,
  unyankVersion,
  writeGitIndex,
  yankVersion,
} from './cargo-handlers.ts';

const CHALLENGE = { challengeAnonymous: true };
const read = packageReader(CHALLENGE);
const write = packageWriter(CHALLENGE);

const CRATE = String.raw`(?<name>[^/]+)`;
const VERSION = String.raw`(?<version>[^/]+)`;
const crates = (...parts: string[]) => new RegExp(`^/api/v1/crates${parts.map((part) => `/${part}`).join('')}$`);

export const CARGO_REGISTRY: RegistryTable = {
  errors: (res, _status, detail) => res.json({ errors: [{ detail }] }),
  routes: [
    registryRoute('GET', /^\/config\.json$/, read, getConfig),
    registryRoute('GET', crates(), read, searchCrates),
    registryRoute('PUT', crates('new'), write, publishCrate),
    registryRoute('GET', crates(CRATE, VERSION, 'download'), read, downloadCrate),
    registryRoute('DELETE', crates(CRATE, VERSION, 'yank'), write, yankVersion),
    registryRoute('PUT', crates(CRATE, VERSION, 'unyank'), write, unyankVersion),
    registryRoute('GET', crates(CRATE, 'owners'), read, listOwners),
    registryRoute('POST', /^\/index\/(?<action>initialize|rebuild)$/, write, writeGitIndex),
    // 1/a, 2/ab, 3/a/abc, ab/cd/abcd…: the handler checks that the path is the one the name makes.
    registryRoute('GET', /^\/(?<path>(?:[^/]+\/){1,2}(?<name>[^/]+))$/, read, getIndexFile),
  ],
};
