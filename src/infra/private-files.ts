// Everything Anvil writes under its data directory (database, repositories, blobs, avatars, keys, dumps) is
// for the account it runs as only: new files 0600 and directories 0700, through the process's file mode mask,
// so no single writer can forget it (git and SQLite, which create files of their own, included).
import fs from 'node:fs';

const OWNER_ONLY_MASK = 0o077;
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export function keepNewFilesPrivate(): void {
  process.umask(process.umask() | OWNER_ONLY_MASK);
}

/** A directory Anvil owns, made private when Anvil makes it (an existing one is the administrator's choice). */
export function makePrivateDirectory(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
}
