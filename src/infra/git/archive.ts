// `git archive` of a commit streamed as it is made, and `git bundle` of a ref (Forgejo: services/repository/archiver).
import type { Readable } from 'node:stream';
import { spawnGit } from './run.ts';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'bundle';

/** Starts git writing the archive; the stream ends with it. A failure after the start cuts the stream short. */
export function streamArchive(dir: string, sha: string, format: ArchiveFormat, prefix: string): Readable {
  const args =
    format === 'bundle'
      ? ['--git-dir', dir, 'bundle', 'create', '-', sha]
      : ['--git-dir', dir, 'archive', `--format=${format}`, `--prefix=${prefix}/`, sha];
  const child = spawnGit(args, { stdio: ['ignore', 'pipe', 'ignore'] });
  child.stdout!.on('close', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return child.stdout!;
}
