import { branchFilterMatches, hookWantsEvent } from '../../src/domain/hook-event.ts';
import { isHostAllowed, parseHostAllowList } from '../../src/domain/host-allow-list.ts';
import { goQueryEscape } from '../../src/webhook/request.ts';

describe('ALLOWED_HOST_LIST', () => {
  it.each([
    ['', 'h', '8.8.8.8', true],
    ['external', 'h', '127.0.0.1', false],
    ['external', 'h', '10.1.2.3', false],
    ['external', 'h', '100.64.0.1', false],
    ['external', 'h', '169.254.169.254', false],
    ['external', 'h', '::ffff:127.0.0.1', false],
    ['loopback', 'h', '127.0.0.1', true],
    ['loopback', 'h', '::1', true],
    ['loopback', 'h', '10.0.0.1', false],
    ['private', 'h', '192.168.1.1', true],
    ['private', 'h', 'fd00::1', true],
    ['private', 'h', '127.0.0.1', false],
    ['*', 'h', '127.0.0.1', true],
    ['10.0.0.0/8, loopback', 'h', '10.9.9.9', true],
    ['*.example.com', 'hooks.example.com', '127.0.0.1', true],
    ['*.example.com', 'example.org', '127.0.0.1', false],
  ])('%s allows %s at %s: %s', (list, host, ip, allowed) => {
    expect(isHostAllowed(parseHostAllowList(list), host, ip)).toBe(allowed);
  });
});

describe('hook event matching', () => {
  const chosen = (events: Record<string, boolean>, branchFilter = '') => ({
    events: JSON.stringify({ choose_events: true, events }),
    branchFilter,
  });

  it('reads push_only, send_everything and choose_events as Forgejo does', () => {
    expect(hookWantsEvent({ events: JSON.stringify({ push_only: true }), branchFilter: '' }, 'push', 'main')).toBe(
      true,
    );
    expect(hookWantsEvent({ events: JSON.stringify({ push_only: true }), branchFilter: '' }, 'create', 'main')).toBe(
      false,
    );
    expect(
      hookWantsEvent({ events: JSON.stringify({ send_everything: true }), branchFilter: '' }, 'package', null),
    ).toBe(true);
    expect(hookWantsEvent(chosen({ issues: true }), 'issues', null)).toBe(true);
    expect(hookWantsEvent(chosen({ issues: true }), 'issue_comment', null)).toBe(false);
  });

  it('applies the branch filter to branches only', () => {
    expect(hookWantsEvent(chosen({ push: true }, 'release/*'), 'push', 'release/1.0')).toBe(true);
    expect(hookWantsEvent(chosen({ push: true }, 'release/*'), 'push', 'main')).toBe(false);
    expect(hookWantsEvent(chosen({ push: true }, 'release/*'), 'push', null)).toBe(true);
    expect(branchFilterMatches('{main,dev}', 'dev')).toBe(true);
    expect(branchFilterMatches('[!m]*', 'main')).toBe(false);
    expect(branchFilterMatches('[', 'main')).toBe(false);
  });
});

it('escapes form payloads as Go url.QueryEscape', () => {
  expect(goQueryEscape(`{"a": "b*c~d'(e)"}`)).toBe('%7B%22a%22%3A+%22b%2Ac~d%27%28e%29%22%7D');
});
