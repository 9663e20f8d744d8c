// Where a worker thread's code is: always the compiled module in dist/. Threads do not inherit the main thread's
// TypeScript loader (jest, tsx), and the bundled server (dist/anvil.js) has no file of its own for the module.
import path from 'node:path';
import { PROJECT_ROOT } from '../../lib/project-root.ts';

/** The compiled file of the worker module `name` of this folder. */
export function workerEntry(name: string): string {
  return path.join(PROJECT_ROOT, 'dist', 'src', 'infra', 'workers', `${name}.js`);
}
