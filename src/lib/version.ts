// The version clients see, one source: package.json's version. /api/v1/version answers as Forgejo v10 does
// (`10.0.3+gitea-1.22.0`, the API level Anvil implements and the Gitea level it descends from) with Anvil's own
// version appended as build metadata, so the string stays semver and clients that look for `gitea-` (Renovate)
// still know a Forgejo.
import fs from 'node:fs';
import { projectPath } from './project-root.ts';

const FORGEJO_API_LEVEL = '10.0.3+gitea-1.22.0';

export const PACKAGE_VERSION: string = JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')).version;

export const ANVIL_VERSION = `${FORGEJO_API_LEVEL}.anvil-${PACKAGE_VERSION}`;
