// One upload read twice as it arrives: into the blob store and by a registry's metadata reader (a .gem's
// metadata.gz, an R package's DESCRIPTION), so the bytes are never held in memory. The source waits for the slower
// branch; a branch destroyed by its reader (it has what it needs, or gave up) no longer holds the other back.
import { PassThrough, type Readable } from 'node:stream';

export function teeStream(source: Readable): [PassThrough, PassThrough] {
  const branches = [new PassThrough(), new PassThrough()] as [PassThrough, PassThrough];
  let waiting = 0;
  const waitFor = (branch: PassThrough) => {
    waiting++;
    const go = () => {
      branch.off('drain', go);
      branch.off('close', go);
      if (--waiting === 0) source.resume();
    };
    branch.on('drain', go);
    branch.on('close', go);
  };
  source.on('data', (chunk: Buffer) => {
    for (const branch of branches) {
      if (branch.destroyed || branch.writableEnded) continue;
      if (!branch.write(chunk)) waitFor(branch);
    }
    if (waiting > 0) source.pause();
  });
  source.on('end', () => {
    for (const branch of branches) if (!branch.destroyed) branch.end();
  });
  source.on('error', (error) => {
    for (const branch of branches) branch.destroy(error);
  });
  source.on('close', () => {
    // A request aborted by its client closes without 'end'.
    if (!source.readableEnded) for (const branch of branches) branch.destroy(new Error('the upload was cut short'));
  });
  return branches;
}
