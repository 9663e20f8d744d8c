// A pre-receive hook for pushes into a repository whose owner is over quota: git receives the pack into its
// quarantine, the hook refuses every ref update that is not a deletion, and git then stores nothing (Forgejo:
// routers/private/hook_pre_receive.go, which lets deletions through). Used only for such pushes, through
// `-c core.hooksPath`, so other pushes run no hook at all.
import path from 'node:path';
import { writeSharedHook } from './shared-hook.ts';

/** What a refused push shows its user, as Forgejo's pre-receive hook says it. */
export const QUOTA_EXCEEDED = 'Quota exceeded';

const SCRIPT = `#!/bin/sh
# Written by Anvil: the repository's owner is over quota; only deletions pass.
refused=0
while read -r old new ref; do
  case "$new" in
    *[!0]*) refused=1 ;;
  esac
done
if [ "$refused" = 1 ]; then
  echo "${QUOTA_EXCEEDED}" >&2
  exit 1
fi
exit 0
`;

/** Where the hooks folder is (absolute: git would read a relative core.hooksPath from the repository's folder). */
export function overQuotaHooksDir(dataDir: string): string {
  return path.resolve(dataDir, 'git-hooks', 'over-quota');
}

/** The hooks folder below the data directory, written on first use. */
export function overQuotaHooksPath(dataDir: string): string {
  return writeSharedHook(overQuotaHooksDir(dataDir), SCRIPT);
}
