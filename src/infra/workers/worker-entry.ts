// Where a worker thread's code is. Threads do not inherit the main thread's TypeScript loader, so code running
// from its sources (jest, tsx) starts its workers from the compiled copy in dist/, which the tests build first.
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

/** The compiled file of the module `name` beside the caller (`callerFile` is the caller's `__filename`). */
export function workerEntry(callerFile: string, name: string): string {
  const dir = path.dirname(callerFile);
  if (path.extname(callerFile) === '.js') return path.join(dir, `${name}.js`);
  return path.join(PROJECT_ROOT, 'dist', path.relative(PROJECT_ROOT, dir), `${name}.js`);
}
