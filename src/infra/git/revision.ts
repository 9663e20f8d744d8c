// What a `ref` the API was given names: a branch, a tag, or a commit (Forgejo tries them in that order).
import { readRefId } from './ref-files.ts';
import { resolveCommit } from './refs.ts';

export interface Revision {
  /** The commit it names. */
  sha: string;
  kind: 'branch' | 'tag' | 'commit';
  /** The branch or tag name, or the commit id, as the caller gave it. */
  name: string;
}

export async function resolveRevision(dir: string, ref: string): Promise<Revision | null> {
  if (ref === '' || ref.startsWith('-')) return null;
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  const branch = ref.startsWith('refs/tags/') ? null : await refCommit(dir, `refs/heads/${name}`);
  if (branch) return { sha: branch, kind: 'branch', name };
  const tag = ref.startsWith('refs/heads/') ? null : await refCommit(dir, `refs/tags/${name}`);
  if (tag) return { sha: tag, kind: 'tag', name };
  if (!/^[0-9a-f]{4,64}$/i.test(ref)) return null;
  const commit = await resolveCommit(dir, ref);
  return commit ? { sha: commit, kind: 'commit', name: ref } : null;
}

/** The commit a branch or tag ref names: its id read from the ref files, peeled by git once per id; git alone when the files cannot tell. */
async function refCommit(dir: string, ref: string): Promise<string | null> {
  const held = await readRefId(dir, ref);
  if (held === 'absent') return null;
  return resolveCommit(dir, held === 'unknown' ? ref : held.id);
}
