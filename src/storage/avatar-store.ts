// Where uploaded avatars are kept, by file name (the hash of their content). On local disk today under
// <APP_DATA_PATH>/avatars; the interface is what an object-storage implementation has to offer too.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface AvatarStore {
  save(name: string, png: Buffer): Promise<void>;
  /** The stored bytes; null when there is no such avatar. */
  read(name: string): Promise<Buffer | null>;
  /** Removing an avatar that is not there is not an error. */
  remove(name: string): Promise<void>;
}

/** Names are hashes; anything that could leave the folder is refused. */
function checkName(name: string): void {
  if (name === '' || name !== path.basename(name) || name.startsWith('.')) throw new Error(`not an avatar file name: ${name}`);
}

export class LocalAvatarStore implements AvatarStore {
  constructor(private readonly directory: string) {}

  async save(name: string, png: Buffer): Promise<void> {
    checkName(name);
    await fs.mkdir(this.directory, { recursive: true });
    await fs.writeFile(path.join(this.directory, name), png);
  }

  async read(name: string): Promise<Buffer | null> {
    checkName(name);
    try {
      return await fs.readFile(path.join(this.directory, name));
    } catch {
      return null;
    }
  }

  async remove(name: string): Promise<void> {
    checkName(name);
    await fs.rm(path.join(this.directory, name), { force: true });
  }
}
