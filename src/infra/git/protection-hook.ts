// A pre-receive hook for pushes into a repository with protected branches (Forgejo: routers/private/
// hook_pre_receive.go): git receives the pack into its quarantine, then the hook refuses, per updated branch that a
// rule protects, a deletion, a force-push (the old commit is not an ancestor of the new one), or a push by someone
// the rule does not let push. The rules come in ANVIL_PROTECTION, one per line: `exact|glob <TAB> push|deny <TAB>
// name`, with whether this pusher may push already decided; an exact name wins over globs, then the first glob that
// matches (shell patterns, which match gobwas's `*`, `?` and classes; `{a,b}` is not supported). Tag rules come as
// `tag-glob|tag-regex <TAB> push|deny <TAB> pattern` (Forgejo: preReceiveTag): a tag that some rule matches may be
// created, moved or deleted only when a matching rule lets this pusher (regular expressions run through grep -E,
// unanchored like Go's MatchString). ANVIL_QUOTA_EXCEEDED
// refuses every update but deletions, as the over-quota hook does (quota-hook.ts).
import path from 'node:path';
import { QUOTA_EXCEEDED } from './quota-hook.ts';
import { writeSharedHook } from './shared-hook.ts';

export interface ProtectionLine {
  /** Set for a tag rule: how its pattern matches. */
  tag?: 'glob' | 'regex';
  glob: boolean;
  mayPush: boolean;
  name: string;
}

const SCRIPT = `#!/bin/sh
# Written by Anvil: branch protection for this push.
refused=0
while read -r old new ref; do
  case "$new" in *[!0]*) deleting=0 ;; *) deleting=1 ;; esac
  if [ -n "$ANVIL_QUOTA_EXCEEDED" ] && [ "$deleting" = 0 ]; then
    echo "${QUOTA_EXCEEDED}" >&2; refused=1; continue
  fi
  tab=$(printf '\\t')
  case "$ref" in refs/tags/*)
    tag=\${ref#refs/tags/}
    matched=0; allowed=0
    while IFS="$tab" read -r kind may name; do
      case "$kind" in
        tag-glob) case "$tag" in $name) ;; *) continue ;; esac ;;
        tag-regex) printf '%s\\n' "$tag" | grep -Eq -e "$name" || continue ;;
        *) continue ;;
      esac
      matched=1; [ "$may" = push ] && allowed=1
    done <<EOF_RULES
$ANVIL_PROTECTION
EOF_RULES
    if [ "$matched" = 1 ] && [ "$allowed" = 0 ]; then
      echo "Tag $tag is protected" >&2; refused=1
    fi
    continue ;;
  esac
  case "$ref" in refs/heads/*) ;; *) continue ;; esac
  branch=\${ref#refs/heads/}
  rule=""
  while IFS="$tab" read -r kind may name; do
    [ "$kind" = exact ] && [ "$name" = "$branch" ] && { rule=$may; break; }
  done <<EOF_RULES
$ANVIL_PROTECTION
EOF_RULES
  if [ -z "$rule" ]; then
    while IFS="$tab" read -r kind may name; do
      [ "$kind" = glob ] || continue
      case "$branch" in $name) rule=$may; break ;; esac
    done <<EOF_RULES
$ANVIL_PROTECTION
EOF_RULES
  fi
  [ -z "$rule" ] && continue
  if [ "$deleting" = 1 ]; then
    echo "branch $branch is protected from deletion" >&2; refused=1; continue
  fi
  case "$old" in *[!0]*)
    if ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
      echo "branch $branch is protected from force push" >&2; refused=1; continue
    fi ;;
  esac
  if [ "$rule" != push ]; then
    echo "Not allowed to push to protected branch $branch" >&2; refused=1; continue
  fi
done
exit $refused
`;

/** ANVIL_PROTECTION's value for a set of rules. */
export function protectionEnv(lines: readonly ProtectionLine[]): string {
  // Tabs and line breaks cannot be in a branch name (git check-ref-format refuses them).
  return lines
    .map((line) => {
      const kind = line.tag ? `tag-${line.tag}` : line.glob ? 'glob' : 'exact';
      return `${kind}\t${line.mayPush ? 'push' : 'deny'}\t${line.name}`;
    })
    .join('\n');
}

/** Where the hooks folder is (absolute: git would read a relative core.hooksPath from the repository's folder). */
export function protectionHooksDir(dataDir: string): string {
  return path.resolve(dataDir, 'git-hooks', 'protected-branches');
}

/** The hooks folder below the data directory, written on first use. */
export function protectionHooksPath(dataDir: string): string {
  return writeSharedHook(protectionHooksDir(dataDir), SCRIPT);
}
