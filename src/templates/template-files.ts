// Template files (gitignore, licence, label, readme) read from folders: a built-in folder overlaid by the
// administrator's `$ANVIL_DATA_DIR/custom/options/<kind>/` (Forgejo: modules/options, modules/repository/init.go).
import fs from 'node:fs';
import path from 'node:path';

/** A set of named templates: the names it offers and the text of one of them. */
export interface TemplateSource {
  names(): readonly string[];
  /** The template's text; null when the source has no template of exactly that name. */
  read(name: string): string | null;
}

/**
 * The file name a requested template name stands for, as Forgejo's util.PathJoinRelX cleans it: backslashes
 * become slashes and `.`/`..` segments are resolved without ever climbing above the folder. Template folders
 * are flat, so a name that still has a folder part names nothing (null).
 */
export function templateFileName(requested: string): string | null {
  const cleaned = path.posix.normalize('/' + requested.replace(/\\/g, '/')).replace(/^\/+/, '');
  if (cleaned === '' || cleaned.includes('/') || cleaned.includes('\0')) return null;
  return cleaned;
}

/** Regular files of a folder, hidden ones left out; none when the folder is absent. */
export function listTemplateFiles(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.filter((entry) => entry.isFile() && !entry.name.startsWith('.')).map((entry) => entry.name);
}

/**
 * The files of one folder. Names come from the folder listing and a read only opens a name found there, so
 * no requested name reaches the file system. `cached` keeps the listing (for folders shipped with Anvil).
 */
export function folderSource(dir: string, options: { cached?: boolean } = {}): TemplateSource {
  let listing: string[] | null = null;
  const names = () => {
    if (options.cached && listing) return listing;
    const files = listTemplateFiles(dir).sort();
    if (options.cached) listing = files;
    return files;
  };
  return {
    names,
    read(name) {
      if (!names().includes(name)) return null;
      try {
        return fs.readFileSync(path.join(dir, name), 'utf8');
      } catch {
        return null;
      }
    },
  };
}

/** `custom` over `base`: the names of both, sorted, and the custom file where both have one. */
export function overlay(custom: TemplateSource, base: TemplateSource): TemplateSource {
  return {
    names: () => [...new Set([...custom.names(), ...base.names()])].sort(),
    read: (name) => custom.read(name) ?? base.read(name),
  };
}
