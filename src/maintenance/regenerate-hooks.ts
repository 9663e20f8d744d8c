// `admin regenerate hooks`. Forgejo rewrites the hooks inside every repository (they call its binary by path).
// Anvil puts no hook in a repository: the pushes that need one (protected branches, an owner over quota) run the
// shared scripts under <data>/git-hooks through `-c core.hooksPath`. So this rewrites those scripts, and reports
// the hooks a repository carries of its own — left by another server (Forgejo's call a binary that is not here) or
// put there by hand — since git runs them on every other push. It removes none of them.
import fs from 'node:fs';
import path from 'node:path';
import type { Settings } from '../config/settings.ts';
import { protectionHooksDir, protectionHooksPath } from '../infra/git/protection-hook.ts';
import { overQuotaHooksDir, overQuotaHooksPath } from '../infra/git/quota-hook.ts';
import { RepositoryStore } from '../infra/git/repository-store.ts';

export interface HookRegeneration {
  /** Anvil's shared hook scripts, and whether each had to be rewritten. */
  shared: { file: string; rewritten: boolean }[];
  repositories: number;
  /** Repositories with hooks git would run, `owner/name` and the hooks' names (relative to hooks/). */
  withOwnHooks: { repository: string; hooks: string[] }[];
}

const PROGRESS_EVERY = 1000;

export function regenerateHooks(settings: Settings, report: (line: string) => void = () => {}): HookRegeneration {
  const dataDir = settings.server.APP_DATA_PATH;
  const shared = [
    { dir: protectionHooksDir(dataDir), write: protectionHooksPath },
    { dir: overQuotaHooksDir(dataDir), write: overQuotaHooksPath },
  ].map(({ dir, write }) => {
    const file = path.join(dir, 'pre-receive');
    const before = readOrNull(file);
    // Each writes its script, atomically, when the file is missing or differs.
    write(dataDir);
    return { file, rewritten: readOrNull(file) !== before };
  });
  const root = settings.repository.ROOT;
  const folders = new RepositoryStore(root).list().filter((folder) => !folder.owner.startsWith('.'));
  const withOwnHooks: HookRegeneration['withOwnHooks'] = [];
  folders.forEach((folder, index) => {
    const hooks = ownHooks(path.join(root, folder.owner, `${folder.name}.git`, 'hooks'));
    if (hooks.length > 0) withOwnHooks.push({ repository: `${folder.owner}/${folder.name}`, hooks });
    if ((index + 1) % PROGRESS_EVERY === 0) report(`checked ${index + 1} of ${folders.length} repositories…`);
  });
  return { shared, repositories: folders.length, withOwnHooks };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** What git would run from a repository's hooks folder: anything but its `.sample` files, `.d` folders included. */
function ownHooks(hooksDir: string): string[] {
  if (!fs.existsSync(hooksDir)) return [];
  return fs
    .readdirSync(hooksDir, { withFileTypes: true })
    .filter((entry) => !entry.name.endsWith('.sample'))
    .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
    .sort();
}
