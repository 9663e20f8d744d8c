// The project's root directory (package.json, assets/, spec/, generated/, prisma/), found the same way whether the
// code runs from its TypeScript sources or from the compiled copy under dist/.
import fs from 'node:fs';
import path from 'node:path';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const PROJECT_ROOT = findRoot(__dirname);

/** A path inside the project. */
export function projectPath(...segments: string[]): string {
  return path.join(PROJECT_ROOT, ...segments);
}
