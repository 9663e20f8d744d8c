// A module zip as the go command makes and reads it (go.dev/ref/mod#zip-files): every file under one
// `<module>@<version>/` folder, go.mod at its root. The module and version are read from that folder; go.mod is kept
// for the proxy's `.mod` answer (a zip without one gets the `module <path>` line the go command would assume).
import { BadRequestError } from '../../domain/errors.ts';
import { UploadedZip } from '../core/uploaded-zip.ts';
import { isValidModulePath, isValidModuleVersion } from './module-names.ts';

/** The go command's own bound on a module zip's inflated size. */
const MAX_INFLATED = 500 * 1024 * 1024;
const MAX_ENTRIES = 50_000;
/** go.mod is kept in the database: far more than any real one, far less than a hostile one. */
export const MAX_GO_MOD = 1024 * 1024;

export interface ModuleZip {
  module: string;
  version: string;
  goMod: string;
}

export async function readModuleZip(file: string): Promise<ModuleZip> {
  const zip = await UploadedZip.open(file, { maxEntries: MAX_ENTRIES, maxTotalBytes: MAX_INFLATED });
  try {
    const members = zip.members();
    if (members.length === 0) throw new BadRequestError('the module zip is empty');
    const root = /^([^@]+)@([^/]+)\//.exec(members[0].name);
    if (!root) throw new BadRequestError('the module zip has no <module>@<version>/ folder');
    const [prefix, module, version] = root;
    if (!isValidModulePath(module)) throw new BadRequestError(`"${module}" is not a valid module path`);
    if (!isValidModuleVersion(version)) throw new BadRequestError(`"${version}" is not a valid module version`);
    const stray = members.find((member) => !member.name.startsWith(prefix));
    if (stray) throw new BadRequestError(`"${stray.name}" is outside ${prefix}`);
    const goModPath = `${prefix}go.mod`;
    const goMod = zip.has(goModPath)
      ? (await zip.read(goModPath, MAX_GO_MOD, `go.mod is larger than ${MAX_GO_MOD} bytes`)).toString('utf8')
      : `module ${module}\n`;
    return { module, version, goMod };
  } finally {
    zip.close();
  }
}
