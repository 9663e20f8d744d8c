// What a `ref` the API was given names: a branch, a tag, or a commit (Forgejo tries them in that order).
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
  const branch = ref.startsWith('refs/tags/') ? null : await resolveCommit(dir, `refs/heads/${name}`);
  if (branch) return { sha: branch, kind: 'branch', name };
  const tag = ref.startsWith('refs/heads/') ? null : await resolveCommit(dir, `refs/tags/${name}`);
  if (tag) return { sha: tag, kind: 'tag', name };
  if (!/^[0-9a-f]{4,64}$/i.test(ref)) return null;
  const commit = await resolveCommit(dir, ref);
  return commit ? { sha: commit, kind: 'commit', name: ref } : null;
}
