// A pre-receive hook Anvil writes once below the data directory and points pushes at with core.hooksPath.
import fs from 'node:fs';
import path from 'node:path';

/** Writes `script` as `<dir>/pre-receive` unless it is already there (atomically: several processes may share it). */
export function writeSharedHook(dir: string, script: string): string {
  const hook = path.join(dir, 'pre-receive');
  if (fs.existsSync(hook) && fs.readFileSync(hook, 'utf8') === script) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const temporary = `${hook}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, script, { mode: 0o755 });
  fs.renameSync(temporary, hook);
  return dir;
}
