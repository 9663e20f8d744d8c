// Licence texts of every SPDX licence, from the spdx-license-list package: the index for the names, one
// small JSON file per licence for its text (read on demand; the whole set is several megabytes).
import fs from 'node:fs';
import path from 'node:path';
import type { TemplateSource } from './template-files.ts';

const packageDir = path.dirname(require.resolve('spdx-license-list/package.json'));
let ids: string[] | null = null;

export const spdxLicenses: TemplateSource = {
  names() {
    ids ??= Object.keys(
      JSON.parse(fs.readFileSync(path.join(packageDir, 'spdx.json'), 'utf8')) as Record<string, unknown>,
    ).sort();
    return ids;
  },
  read(id) {
    if (!spdxLicenses.names().includes(id)) return null;
    const entry = JSON.parse(fs.readFileSync(path.join(packageDir, 'licenses', `${id}.json`), 'utf8')) as {
      licenseText?: string;
    };
    return entry.licenseText ?? null;
  },
};
