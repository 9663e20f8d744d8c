// Quota subjects, what an owner uses of each, and the one decision: may this owner still write to a subject?
// Forgejo v10 semantics (models/quota/{limit_subject,rule,group,default,used}.go), except that Anvil counts each
// byte once in size:all (v10 adds the repositories twice).

import { memberOf } from '../lib/member-of.ts';

export const QUOTA_SUBJECTS = [
  'none',
  'size:all',
  'size:repos:all',
  'size:repos:public',
  'size:repos:private',
  'size:git:all',
  'size:git:lfs',
  'size:assets:all',
  'size:assets:attachments:all',
  'size:assets:attachments:issues',
  'size:assets:attachments:releases',
  'size:assets:artifacts',
  'size:assets:packages:all',
  'size:assets:wiki',
] as const;

export type QuotaSubject = (typeof QUOTA_SUBJECTS)[number];

export const isQuotaSubject = memberOf(QUOTA_SUBJECTS);

/** Bytes an owner uses, per leaf of the subject tree. */
export interface QuotaUsage {
  reposPublic: number;
  reposPrivate: number;
  lfs: number;
  attachmentsIssues: number;
  attachmentsReleases: number;
  artifacts: number;
  packages: number;
}

export const NO_USAGE: QuotaUsage = {
  reposPublic: 0,
  reposPrivate: 0,
  lfs: 0,
  attachmentsIssues: 0,
  attachmentsReleases: 0,
  artifacts: 0,
  packages: 0,
};

/** The leaf each subject without children counts; an upload about to be written adds to it. */
const LEAF: Partial<Record<QuotaSubject, keyof QuotaUsage>> = {
  'size:repos:public': 'reposPublic',
  'size:repos:private': 'reposPrivate',
  'size:git:lfs': 'lfs',
  'size:assets:attachments:issues': 'attachmentsIssues',
  'size:assets:attachments:releases': 'attachmentsReleases',
  'size:assets:artifacts': 'artifacts',
  'size:assets:packages:all': 'packages',
};

/** A field of QuotaUsage: where the bytes of one kind of write count. */
export type QuotaLeaf = keyof QuotaUsage;

export function isQuotaLeaf(value: string): value is QuotaLeaf {
  return Object.hasOwn(NO_USAGE, value);
}

/** Usage with `bytes` more on the leaf `subject` counts; other subjects name no single leaf. */
export function withPendingBytes(used: QuotaUsage, subject: QuotaSubject, bytes: number): QuotaUsage {
  if (bytes === 0) return used;
  const leaf = LEAF[subject];
  if (!leaf) throw new Error(`pending bytes need a leaf subject, not ${subject}`);
  return withLeafBytes(used, leaf, bytes);
}

export function withLeafBytes(used: QuotaUsage, leaf: QuotaLeaf, bytes: number): QuotaUsage {
  return bytes === 0 ? used : { ...used, [leaf]: used[leaf] + bytes };
}

export function usedFor(subject: QuotaSubject, used: QuotaUsage): number {
  const repos = used.reposPublic + used.reposPrivate;
  const attachments = used.attachmentsIssues + used.attachmentsReleases;
  const assets = attachments + used.artifacts + used.packages;
  switch (subject) {
    case 'size:all':
      return repos + used.lfs + assets;
    case 'size:repos:all':
      return repos;
    case 'size:git:all':
      return repos + used.lfs;
    case 'size:assets:all':
      return assets;
    case 'size:assets:attachments:all':
      return attachments;
    case 'none':
    case 'size:assets:wiki':
      return 0;
    default:
      return used[LEAF[subject]!];
  }
}

export interface QuotaRule {
  name: string;
  /** Bytes; -1 is unlimited. */
  limit: number;
  subjects: QuotaSubject[];
}

export interface QuotaGroup {
  name: string;
  rules: QuotaRule[];
}

/** What an owner's quota views show: its usage and the groups that apply to it. */
export interface QuotaInfo {
  used: QuotaUsage;
  groups: QuotaGroup[];
}

/** Where a subject no rule of a group names is looked for next: its children, never its parent. */
const CHILDREN: Partial<Record<QuotaSubject, QuotaSubject[]>> = {
  'size:all': ['size:repos:all', 'size:git:lfs', 'size:assets:all'],
  'size:repos:all': ['size:repos:public', 'size:repos:private'],
  'size:assets:all': ['size:assets:attachments:all', 'size:assets:artifacts', 'size:assets:packages:all'],
  'size:assets:attachments:all': ['size:assets:attachments:issues', 'size:assets:attachments:releases'],
};

interface Verdict {
  /** Some rule of the group speaks about the subject (an unlimited rule speaks about every subject). */
  covered: boolean;
  allowed: boolean;
}

function ruleVerdict(rule: QuotaRule, used: QuotaUsage, subject: QuotaSubject): Verdict {
  if (rule.limit === -1) return { covered: true, allowed: true };
  if (!rule.subjects.includes(subject)) return { covered: false, allowed: true };
  const sum = rule.subjects.reduce((total, each) => total + usedFor(each, used), 0);
  return { covered: true, allowed: sum <= rule.limit };
}

/** Every rule of a group that covers the subject must pass; with none, the subject's children decide. */
function groupVerdict(group: QuotaGroup, used: QuotaUsage, subject: QuotaSubject): Verdict {
  let covered = false;
  for (const rule of group.rules) {
    const verdict = ruleVerdict(rule, used, subject);
    if (verdict.covered && !verdict.allowed) return verdict;
    covered ||= verdict.covered;
  }
  if (covered) return { covered, allowed: true };
  for (const child of CHILDREN[subject] ?? []) {
    const verdict = groupVerdict(group, used, child);
    if (verdict.covered && !verdict.allowed) return verdict;
    covered ||= verdict.covered;
  }
  return { covered, allowed: true };
}

/**
 * Whether an owner whose groups are `groups` and who uses `used` may still write to `subject`. Usage is what is
 * stored before the write, so a limit of 0 lets the first write through. No groups: one built-in rule on size:all
 * with `defaultTotal` ([quota.default] TOTAL). Otherwise one group that covers the subject and passes is enough;
 * a subject no group covers is refused.
 */
export function isWithinQuota(
  groups: readonly QuotaGroup[],
  used: QuotaUsage,
  subject: QuotaSubject,
  defaultTotal: number,
): boolean {
  const effective =
    groups.length > 0
      ? groups
      : [
          {
            name: 'builtin-default-group',
            rules: [{ name: 'builtin-default-rule', limit: defaultTotal, subjects: ['size:all'] as QuotaSubject[] }],
          },
        ];
  return effective.some((group) => {
    const verdict = groupVerdict(group, used, subject);
    return verdict.covered && verdict.allowed;
  });
}

/**
 * How many bytes more on `leaf` still leave the owner within `subject` once written: Infinity when no limit binds,
 * -1 when the owner is over already. Being within is monotone in the bytes, so a binary search finds the edge
 * whatever the rules and groups.
 */
export function headroom(
  groups: readonly QuotaGroup[],
  used: QuotaUsage,
  subject: QuotaSubject,
  leaf: QuotaLeaf,
  defaultTotal: number,
): number {
  const fits = (bytes: number) => isWithinQuota(groups, withLeafBytes(used, leaf, bytes), subject, defaultTotal);
  if (!fits(0)) return -1;
  let low = 0;
  let high = Number.MAX_SAFE_INTEGER;
  if (fits(high)) return Infinity;
  while (high - low > 1) {
    const middle = low + Math.floor((high - low) / 2);
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return low;
}
