import {
  isValidExternalTrackerFormat,
  isValidExternalUrl,
  repoUnitsSettingsProblem,
} from '../../src/domain/repo-units-settings.ts';

const ROOT = 'https://forge.example.com/';

describe('isValidExternalUrl', () => {
  it.each([
    'https://tracker.example.com',
    'http://tracker.example.com:8080/issues?q=1',
    'https://10.0.0.5/wiki',
    'https://forge.example.com/other/repo/issues',
  ])('accepts %s', (url) => {
    expect(isValidExternalUrl(url, ROOT)).toBe(true);
  });

  it.each([
    '',
    'not a url',
    '/relative/path',
    'ftp://tracker.example.com',
    'javascript:alert(1)',
    'mailto:a@example.com',
    'https://',
    'http://localhost/issues',
    'http://LOCALHOST:3000',
    'http://127.0.0.1/x',
    'http://127.1.2.3/x',
    'http://[::1]/x',
    'https://forge.example.com/api/v1/repos',
    'https://tracker.example.com:99999/',
    'https://tracker.example.com/a b',
  ])('refuses %j', (url) => {
    expect(isValidExternalUrl(url, ROOT)).toBe(false);
  });
});

describe('isValidExternalTrackerFormat', () => {
  it.each([
    'https://tracker.example.com/{user}/{repo}/issues/{index}',
    'https://tracker.example.com/browse/PROJ-{index}',
    'https://tracker.example.com/issues',
  ])('accepts %s', (format) => {
    expect(isValidExternalTrackerFormat(format, ROOT)).toBe(true);
  });

  it.each([
    ['an unclosed brace', 'https://tracker.example.com/{user/{repo}/{index}'],
    ['an unopened brace', 'https://tracker.example.com/user}/{index}'],
    ['an unknown placeholder', 'https://tracker.example.com/{owner}/{index}'],
    ['an empty placeholder', 'https://tracker.example.com/{}/{index}'],
    ['a nested brace', 'https://tracker.example.com/{{index}}'],
    ['a placeholder in upper case', 'https://tracker.example.com/{INDEX}'],
    ['no URL around the placeholders', '{user}/{repo}/{index}'],
    ['a loopback host', 'http://localhost/{index}'],
  ])('refuses %s', (_what, format) => {
    expect(isValidExternalTrackerFormat(format, ROOT)).toBe(false);
  });
});

describe('repoUnitsSettingsProblem', () => {
  it('accepts an edit without unit settings and every merge and update style', () => {
    expect(repoUnitsSettingsProblem({}, ROOT)).toBeNull();
    for (const style of ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only']) {
      expect(repoUnitsSettingsProblem({ default_merge_style: style }, ROOT)).toBeNull();
    }
    for (const style of ['merge', 'rebase'])
      expect(repoUnitsSettingsProblem({ default_update_style: style }, ROOT)).toBeNull();
  });

  it.each([
    [{ default_merge_style: 'octopus' }, '[DefaultMergeStyle]: In'],
    [{ default_merge_style: '' }, '[DefaultMergeStyle]: In'],
    [{ default_merge_style: 'Merge' }, '[DefaultMergeStyle]: In'],
    [{ default_update_style: 'squash' }, '[DefaultUpdateStyle]: In'],
    [{ has_issues: true, external_tracker: { external_tracker_url: 'nope' } }, 'External tracker URL not valid'],
    [{ has_issues: true, external_tracker: {} }, 'External tracker URL not valid'],
    [
      {
        has_issues: true,
        external_tracker: {
          external_tracker_url: 'https://t.example.com',
          external_tracker_format: 'https://t.example.com/{id}',
        },
      },
      'External tracker URL format not valid',
    ],
    [{ has_wiki: true, external_wiki: { external_wiki_url: 'file:///etc/passwd' } }, 'Invalid external wiki URL'],
  ])('refuses %j: %s', (edit, message) => {
    expect(repoUnitsSettingsProblem(edit, ROOT)).toBe(message);
  });

  it('checks the external tracker and wiki only when the edit switches to them', () => {
    const bad = { external_tracker: { external_tracker_url: 'nope' }, external_wiki: { external_wiki_url: 'nope' } };
    expect(repoUnitsSettingsProblem(bad, ROOT)).toBeNull();
    expect(repoUnitsSettingsProblem({ ...bad, has_issues: false, has_wiki: false }, ROOT)).toBeNull();
    expect(repoUnitsSettingsProblem({ ...bad, has_wiki: true }, ROOT)).toBe('Invalid external wiki URL');
  });

  it('accepts an empty tracker format', () => {
    expect(
      repoUnitsSettingsProblem(
        {
          has_issues: true,
          external_tracker: { external_tracker_url: 'https://t.example.com', external_tracker_format: '' },
        },
        ROOT,
      ),
    ).toBeNull();
  });
});
