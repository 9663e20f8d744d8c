// Where bare repositories live on disk, Forgejo's layout: <root>/<owner lower>/<repo lower>.git. Every path is
// checked to stay inside the root, and names are validated before they become paths. Services find, move and
// remove repository directories only through this; git itself then works on the directory it hands out.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ownerNameProblem, repoNameProblem } from '../../domain/names.ts';

export class UnsafePathError extends Error {}

/** Folder under the root where clones are made before they are moved into place (not a valid owner name). */
const STAGING_FOLDER = '.staging';

export interface RepositoryFolder {
  owner: string;
  name: string;
}

export class RepositoryStore {
  constructor(private readonly root: string) {}

  private inside(...segments: string[]): string {
    const base = path.resolve(this.root);
    const target = path.resolve(base, ...segments);
    if (!target.startsWith(base + path.sep))
      throw new UnsafePathError(`path escapes the repository root: ${segments.join('/')}`);
    return target;
  }

  private ownerDirectory(owner: string): string {
    if (ownerNameProblem(owner) !== null) throw new UnsafePathError(`not a valid owner name: ${owner}`);
    return this.inside(owner.toLowerCase());
  }

  /** Where git finds the repository (it need not exist). */
  directory(owner: string, repo: string): string {
    if (ownerNameProblem(owner) !== null || repoNameProblem(repo) !== null)
      throw new UnsafePathError(`not a valid repository name: ${owner}/${repo}`);
    return this.inside(owner.toLowerCase(), `${repo.toLowerCase()}.git`);
  }

  /** The directory of a repository row that carries its owner's name. */
  directoryOf(repo: { readonly ownerName: string; readonly name: string }): string {
    return this.directory(repo.ownerName, repo.name);
  }

  exists(owner: string, repo: string): boolean {
    try {
      return fs.statSync(this.directory(owner, repo)).isDirectory();
    } catch {
      return false;
    }
  }

  remove(owner: string, repo: string): void {
    fs.rmSync(this.directory(owner, repo), { recursive: true, force: true });
  }

  /** Moves a repository to a new name under its owner; false when there was nothing to move. */
  rename(owner: string, from: string, to: string): boolean {
    return move(this.directory(owner, from), this.directory(owner, to));
  }

  /** Moves every repository of an owner when the owner is renamed; false when there was nothing to move. */
  renameOwner(oldName: string, newName: string): boolean {
    const from = this.ownerDirectory(oldName);
    const to = this.ownerDirectory(newName);
    if (from === to || !fs.existsSync(from)) return false;
    fs.renameSync(from, to);
    return true;
  }

  /** Removes an owner's folder with every repository in it (and anything unadopted beside them). */
  async removeOwner(owner: string): Promise<void> {
    await fs.promises.rm(this.ownerDirectory(owner), { recursive: true, force: true });
  }

  /** A fresh directory path under the root for work that is moved into place only when it succeeded. */
  createStaging(): string {
    const dir = this.inside(STAGING_FOLDER);
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, randomBytes(8).toString('hex') + '.git');
  }

  /** Moves a staged directory into the repository's place. */
  placeStaged(staging: string, owner: string, repo: string): void {
    move(this.staged(staging), this.directory(owner, repo));
  }

  removeStaged(staging: string): void {
    fs.rmSync(this.staged(staging), { recursive: true, force: true });
  }

  private staged(staging: string): string {
    return this.inside(STAGING_FOLDER, path.basename(staging));
  }

  /** Repository folders two levels below the root: `<owner>/<name>.git`, as they are named on disk. */
  list(): RepositoryFolder[] {
    const found: RepositoryFolder[] = [];
    const owners = fs.existsSync(this.root) ? fs.readdirSync(this.root, { withFileTypes: true }) : [];
    for (const owner of owners
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()) {
      const repos = fs.readdirSync(path.join(this.root, owner), { withFileTypes: true });
      for (const repo of repos
        .filter((entry) => entry.isDirectory() && entry.name.endsWith('.git'))
        .map((entry) => entry.name)
        .sort()) {
        found.push({ owner, name: repo.slice(0, -'.git'.length) });
      }
    }
    return found;
  }
}

function move(from: string, to: string): boolean {
  if (from === to || !fs.existsSync(from)) return false;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.renameSync(from, to);
  return true;
}
