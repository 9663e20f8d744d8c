import {
  headroom,
  isQuotaSubject,
  isWithinQuota,
  NO_USAGE,
  type QuotaGroup,
  type QuotaRule,
  type QuotaSubject,
  type QuotaUsage,
  usedFor,
  withPendingBytes,
} from '../../src/domain/quota.ts';

const rule = (limit: number, ...subjects: QuotaSubject[]): QuotaRule => ({
  name: `r${limit}-${subjects.join('+')}`,
  limit,
  subjects,
});
const group = (...rules: QuotaRule[]): QuotaGroup => ({ name: 'g', rules });
const usage = (fields: Partial<QuotaUsage>): QuotaUsage => ({ ...NO_USAGE, ...fields });

const repos100 = usage({ reposPublic: 60, reposPrivate: 40 });

describe('isWithinQuota', () => {
  it.each<[string, QuotaGroup[], QuotaUsage, QuotaSubject, number, boolean]>([
    // no group: the configured default, one rule on size:all
    ['no group, unlimited default', [], repos100, 'size:repos:all', -1, true],
    ['no group, default total not reached', [], repos100, 'size:all', 100, true],
    ['no group, default total exceeded', [], repos100, 'size:all', 99, false],
    ['no group, default limit 0 before the first write', [], NO_USAGE, 'size:all', 0, true],
    // the default rule names size:all only; a child subject does not look up to it
    ['no group, a child subject is not covered by the default', [], NO_USAGE, 'size:repos:all', 1000, false],
    // a group with no rule covering the subject denies
    ['rule on another subject', [group(rule(1000, 'size:assets:all'))], NO_USAGE, 'size:repos:all', -1, false],
    ['no rules at all', [group()], NO_USAGE, 'size:repos:all', -1, false],
    // parent subjects are never consulted
    ['parent rule does not cover a child', [group(rule(1000, 'size:all'))], NO_USAGE, 'size:repos:public', -1, false],
    // children are: a rule on a child answers for the parent
    [
      'child rule answers for the parent (passes)',
      [group(rule(100, 'size:repos:public'))],
      repos100,
      'size:repos:all',
      -1,
      true,
    ],
    [
      'child rule answers for the parent (fails)',
      [group(rule(59, 'size:repos:public'))],
      repos100,
      'size:repos:all',
      -1,
      false,
    ],
    [
      'grandchild rule answers for size:all',
      [group(rule(10, 'size:assets:packages:all'))],
      usage({ packages: 11 }),
      'size:all',
      -1,
      false,
    ],
    // limits
    ['at the limit passes', [group(rule(100, 'size:repos:all'))], repos100, 'size:repos:all', -1, true],
    ['over the limit fails', [group(rule(99, 'size:repos:all'))], repos100, 'size:repos:all', -1, false],
    ['limit -1 covers every subject', [group(rule(-1, 'size:assets:artifacts'))], repos100, 'size:repos:all', 0, true],
    [
      'a rule sums all its subjects',
      [group(rule(120, 'size:repos:all', 'size:git:lfs'))],
      usage({ reposPublic: 100, lfs: 30 }),
      'size:repos:all',
      -1,
      false,
    ],
    // rules in a group are AND-ed
    [
      'AND: both pass',
      [group(rule(200, 'size:repos:all'), rule(150, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      true,
    ],
    [
      'AND: one fails',
      [group(rule(200, 'size:repos:all'), rule(50, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      false,
    ],
    [
      'AND: unlimited rule does not rescue a failing one',
      [group(rule(-1, 'size:all'), rule(50, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      false,
    ],
    // across groups the most permissive wins
    [
      'OR: one permissive group suffices',
      [group(rule(50, 'size:repos:all')), group(rule(500, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      true,
    ],
    [
      'OR: a covering group beats one that does not cover',
      [group(rule(5, 'size:assets:all')), group(rule(500, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      true,
    ],
    [
      'OR: all failing',
      [group(rule(50, 'size:repos:all')), group(rule(60, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      -1,
      false,
    ],
    ['groups replace the default', [group(rule(500, 'size:assets:all'))], repos100, 'size:repos:all', -1, false],
  ])('%s', (_name, groups, used, subject, defaultTotal, expected) => {
    expect(isWithinQuota(groups, used, subject, defaultTotal)).toBe(expected);
  });
});

describe('usedFor', () => {
  const used = usage({
    reposPublic: 1,
    reposPrivate: 2,
    lfs: 4,
    attachmentsIssues: 8,
    attachmentsReleases: 16,
    artifacts: 32,
    packages: 64,
  });
  it.each<[QuotaSubject, number]>([
    ['size:all', 127], // each byte once
    ['size:repos:all', 3],
    ['size:repos:public', 1],
    ['size:repos:private', 2],
    ['size:git:all', 7],
    ['size:git:lfs', 4],
    ['size:assets:all', 120],
    ['size:assets:attachments:all', 24],
    ['size:assets:attachments:issues', 8],
    ['size:assets:attachments:releases', 16],
    ['size:assets:artifacts', 32],
    ['size:assets:packages:all', 64],
    ['size:assets:wiki', 0],
    ['none', 0],
  ])('%s counts %p', (subject, bytes) => expect(usedFor(subject, used)).toBe(bytes));
});

describe('subjects and pending bytes', () => {
  it('knows exactly Forgejo’s subject strings', () => {
    expect(isQuotaSubject('size:assets:packages:all')).toBe(true);
    expect(isQuotaSubject('size:wiki')).toBe(false);
    expect(isQuotaSubject('size:repos')).toBe(false);
  });

  it('adds an upload about to be written to its leaf', () => {
    const used = withPendingBytes(usage({ packages: 5 }), 'size:assets:packages:all', 10);
    expect(isWithinQuota([group(rule(14, 'size:assets:packages:all'))], used, 'size:assets:packages:all', -1)).toBe(
      false,
    );
    expect(isWithinQuota([group(rule(15, 'size:assets:packages:all'))], used, 'size:assets:packages:all', -1)).toBe(
      true,
    );
    expect(() => withPendingBytes(NO_USAGE, 'size:all', 1)).toThrow();
  });
});

describe('headroom', () => {
  it.each<[string, QuotaGroup[], QuotaUsage, QuotaSubject, number]>([
    ['what one rule leaves', [group(rule(100, 'size:repos:all'))], repos100, 'size:repos:all', 0],
    [
      'every covering rule of a group must pass',
      [group(rule(1000, 'size:repos:all'), rule(150, 'size:repos:all', 'size:git:lfs'))],
      repos100,
      'size:repos:all',
      50,
    ],
    [
      'the best group binds',
      [group(rule(120, 'size:repos:all')), group(rule(500, 'size:repos:all'))],
      repos100,
      'size:repos:all',
      400,
    ],
    ['over already', [group(rule(99, 'size:repos:all'))], repos100, 'size:repos:all', -1],
    ['unlimited', [group(rule(-1, 'size:repos:all'))], repos100, 'size:repos:all', Infinity],
  ])('%s', (_name, groups, used, subject, expected) => {
    expect(headroom(groups, used, subject, 'reposPrivate', -1)).toBe(expected);
  });

  it('is the largest write that still passes isWithinQuota', () => {
    const groups = [group(rule(1000, 'size:assets:packages:all', 'size:repos:all'))];
    const room = headroom(groups, repos100, 'size:assets:packages:all', 'packages', -1);
    expect(isWithinQuota(groups, usage({ ...repos100, packages: room }), 'size:assets:packages:all', -1)).toBe(true);
    const past = usage({ ...repos100, packages: room + 1 });
    expect(isWithinQuota(groups, past, 'size:assets:packages:all', -1)).toBe(false);
  });
});
