import { hookEventList, hookEventsFromList, isValidHookUrl } from '../../src/domain/webhook.ts';

const roundTrip = (events?: string[]) => hookEventList(JSON.stringify(hookEventsFromList(events)));

describe('webhook events', () => {
  it('means push when the list is empty', () => {
    expect(roundTrip([])).toEqual(['push']);
    expect(roundTrip(undefined)).toEqual(['push']);
  });

  it('expands issues and pull_request to every event of their kind', () => {
    expect(roundTrip(['issues'])).toEqual([
      'issues',
      'issue_assign',
      'issue_label',
      'issue_milestone',
      'issue_comment',
    ]);
    expect(roundTrip(['pull_request'])).toEqual([
      'pull_request',
      'pull_request_assign',
      'pull_request_label',
      'pull_request_milestone',
      'pull_request_comment',
      'pull_request_review_approved',
      'pull_request_review_rejected',
      'pull_request_review_comment',
      'pull_request_sync',
      'pull_request_review_request',
    ]);
  });

  it('keeps the _only forms to the main event and ignores unknown names', () => {
    expect(roundTrip(['issues_only', 'pull_request_only', 'Create', 'nonsense'])).toEqual([
      'create',
      'issues',
      'pull_request',
    ]);
  });

  it('reads stored send_everything hooks as every event', () => {
    expect(hookEventList(JSON.stringify({ send_everything: true }))).toHaveLength(23);
    expect(hookEventList('not json')).toEqual([]);
  });

  it.each([
    ['https://example.com/hook', true],
    ['http://127.0.0.1:8080/x', true],
    ['ftp://example.com', false],
    ['example.com/hook', false],
    ['', false],
  ])('judges %p a valid target: %p', (url, valid) => {
    expect(isValidHookUrl(url)).toBe(valid);
  });
});
