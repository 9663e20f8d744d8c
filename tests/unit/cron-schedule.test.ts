import { parseSchedule, ScheduleError } from '../../src/services/cron/schedule.ts';
import { diffRefs, mirrorSyncOpType, pushOpType } from '../../src/domain/push.ts';

// Local times, as the scheduler works in the server's time zone.
const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s);

describe('parseSchedule', () => {
  // Every default schedule of Forgejo's cron tasks (services/cron/tasks_basic.go, tasks_extended.go, tasks_actions.go).
  it.each([
    ['@every 1m', at(2024, 5, 1, 10, 3, 7), at(2024, 5, 1, 10, 4, 7)],
    ['@every 5m', at(2024, 5, 1, 10, 3, 7), at(2024, 5, 1, 10, 8, 7)],
    ['@every 10m', at(2024, 5, 1, 23, 55), at(2024, 5, 2, 0, 5)],
    ['@every 30m', at(2024, 5, 1, 10, 3, 7), at(2024, 5, 1, 10, 33, 7)],
    ['@every 6h', at(2024, 5, 1, 20), at(2024, 5, 2, 2)],
    ['@every 24h', at(2024, 5, 1, 10), at(2024, 5, 2, 10)],
    ['@every 72h', at(2024, 2, 28, 12), at(2024, 3, 2, 12)],
    ['@every 168h', at(2024, 5, 1, 10), at(2024, 5, 8, 10)],
    ['@midnight', at(2024, 5, 31, 0, 0, 1), at(2024, 6, 1)],
    ['@annually', at(2024, 12, 31, 23, 59), at(2025, 1, 1)],
  ])('Forgejo default %s after %s', (text, after, expected) => {
    expect(parseSchedule(text).next(after)).toEqual(expected);
  });

  it.each([
    ['@every 10m', at(2024, 5, 1, 10, 3, 7), at(2024, 5, 1, 10, 13, 7)],
    ['@every 72h', at(2024, 5, 1, 10), at(2024, 5, 4, 10)],
    ['@every 1h30m', at(2024, 5, 1, 23, 0), at(2024, 5, 2, 0, 30)],
    ['@midnight', at(2024, 5, 1, 10, 3), at(2024, 5, 2)],
    ['@midnight', at(2024, 5, 1), at(2024, 5, 2)],
    ['@daily', at(2024, 12, 31, 23, 59, 59), at(2025, 1, 1)],
    ['@hourly', at(2024, 5, 1, 10, 3), at(2024, 5, 1, 11)],
    ['@annually', at(2024, 5, 1), at(2025, 1, 1)],
    ['@yearly', at(2024, 1, 1), at(2025, 1, 1)],
    ['@monthly', at(2024, 1, 31, 12), at(2024, 2, 1)],
    ['@weekly', at(2024, 5, 1), at(2024, 5, 5)], // 2024-05-01 is a Wednesday; Sunday follows
    ['*/15 * * * *', at(2024, 5, 1, 10, 7), at(2024, 5, 1, 10, 15)],
    ['30 2 * * *', at(2024, 5, 1, 3), at(2024, 5, 2, 2, 30)],
    ['0 9-17/4 * * 1-5', at(2024, 5, 3, 18), at(2024, 5, 6, 9)], // Friday evening → Monday 09:00
    ['0 0 29 2 *', at(2024, 3, 1), at(2028, 2, 29)],
    ['0 0 1,15 * *', at(2024, 5, 2), at(2024, 5, 15)],
    ['0 0 * * 7', at(2024, 5, 1), at(2024, 5, 5)], // 7 is Sunday too
    ['0 0 13 * 5', at(2024, 5, 1), at(2024, 5, 3)], // both day fields set: either matches
    ['0 0 13 * 5', at(2024, 12, 7), at(2024, 12, 13)], // ... the day of the month too
    ['0 0 * 1 *', at(2024, 5, 1), at(2025, 1, 1)], // only the month restricted
    ['5/15 * * * *', at(2024, 5, 1, 10, 21), at(2024, 5, 1, 10, 35)], // `N/step` runs from N to the end, as robfig/cron reads it
    ['0 12 * JAN-MAR MON', at(2024, 5, 1), at(2025, 1, 6, 12)],
    ['@MIDNIGHT', at(2024, 5, 1, 10), at(2024, 5, 2)],
  ])('%s after %s', (text, after, expected) => {
    expect(parseSchedule(text).next(after)).toEqual(expected);
  });

  it('keeps the text it was given', () => {
    expect(parseSchedule('@every 10m').text).toBe('@every 10m');
    expect(parseSchedule(' @midnight ').text).toBe('@midnight');
  });

  it.each([
    '',
    '@every',
    '@every 0s',
    '@every 10 minutes',
    '@sometimes',
    '* * * *',
    '60 * * * *',
    '* 24 * * *',
    '* * 0 * *',
    '* * * 13 *',
    '*/0 * * * *',
    '5-1 * * * *',
    'a * * * *',
    '0 0 0 * * *',
    '@every 1d',
    '@every -5m',
    'TZ=UTC',
  ])('refuses %j', (text) => {
    expect(() => parseSchedule(text)).toThrow(ScheduleError);
  });

  it('refuses a date that never comes', () => {
    expect(() => parseSchedule('0 0 31 2 *').next(at(2024, 1, 1))).toThrow(ScheduleError);
  });
});

describe('ref changes of a push', () => {
  const before = new Map([
    ['refs/heads/main', 'a1'],
    ['refs/heads/old', 'b1'],
    ['refs/tags/v1', 't1'],
    ['refs/heads/same', 's1'],
  ]);
  const after = new Map([
    ['refs/heads/main', 'a2'],
    ['refs/heads/new', 'c1'],
    ['refs/tags/v1', 't1'],
    ['refs/tags/v2', 't2'],
    ['refs/heads/same', 's1'],
  ]);
  const changes = diffRefs(before, after);

  it('lists created, moved and deleted refs by name', () => {
    expect(changes).toEqual([
      { ref: 'refs/heads/main', oldSha: 'a1', newSha: 'a2' },
      { ref: 'refs/heads/new', oldSha: null, newSha: 'c1' },
      { ref: 'refs/heads/old', oldSha: 'b1', newSha: null },
      { ref: 'refs/tags/v2', oldSha: null, newSha: 't2' },
    ]);
  });

  it('maps them to Forgejo feed actions for pushes and mirror syncs', () => {
    expect(changes.map(pushOpType)).toEqual(['commit_repo', 'commit_repo', 'delete_branch', 'push_tag']);
    expect(pushOpType({ ref: 'refs/tags/v1', oldSha: 't1', newSha: null })).toBe('delete_tag');
    expect(pushOpType({ ref: 'refs/notes/x', oldSha: null, newSha: 'n' })).toBeNull();
    expect(changes.map(mirrorSyncOpType)).toEqual([
      'mirror_sync_push',
      'mirror_sync_create',
      'mirror_sync_delete',
      'mirror_sync_create',
    ]);
    expect(mirrorSyncOpType({ ref: 'refs/pull/1/head', oldSha: null, newSha: 'p' })).toBeNull();
  });
});
