// Where uploaded avatars are kept, by file name (the hash of their content): a local folder (<APP_DATA_PATH>/avatars
// by default) or a bucket (s3-avatar-store.ts), as [storage.avatars] says.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface AvatarStore {
  save(name: string, png: Buffer): Promise<void>;
  /** The stored bytes; null when there is no such avatar. */
  read(name: string): Promise<Buffer | null>;
  /** Removing an avatar that is not there is not an error. */
  remove(name: string): Promise<void>;
}

/** Names are hashes; anything that could leave the folder (or the prefix in a bucket) is refused. */
export function checkAvatarName(name: string): void {
  if (name === '' || name !== path.basename(name) || name.startsWith('.'))
    throw new Error(`not an avatar file name: ${name}`);
}

export class LocalAvatarStore implements AvatarStore {
  constructor(private readonly directory: string) {}

  async save(name: string, png: Buffer): Promise<void> {
    checkAvatarName(name);
    await fs.mkdir(this.directory, { recursive: true });
    await fs.writeFile(path.join(this.directory, name), png);
  }

  async read(name: string): Promise<Buffer | null> {
    checkAvatarName(name);
    try {
      return await fs.readFile(path.join(this.directory, name));
    } catch {
      return null;
    }
  }

  async remove(name: string): Promise<void> {
    checkAvatarName(name);
    await fs.rm(path.join(this.directory, name), { force: true });
  }
}
