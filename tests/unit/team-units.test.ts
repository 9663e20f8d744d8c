import {
  knownUnitsMap,
  lowestUnitAccess,
  parseTeamPermission,
  teamAccessMode,
  teamUnitGrants,
  teamUnitsView,
} from '../../src/domain/access/team-units.ts';

const ALL_KEYS = [
  'repo.code',
  'repo.issues',
  'repo.pulls',
  'repo.releases',
  'repo.wiki',
  'repo.ext_wiki',
  'repo.ext_issues',
  'repo.projects',
  'repo.packages',
  'repo.actions',
];

describe('parseTeamPermission', () => {
  it.each([
    ['read', 1],
    ['write', 2],
    ['admin', 3],
    ['ADMIN', 3],
    ['owner', 0],
    ['none', 0],
    ['', 0],
    [undefined, 0],
    ['superuser', 0],
  ])('%s → %d', (text, mode) => {
    expect(parseTeamPermission(text)).toBe(mode);
  });
});

describe('team level and units from a create body (organization rule 15)', () => {
  const cases: Array<
    [
      string,
      { permission?: string; units?: string[]; unitsMap?: Record<string, string> },
      number,
      Record<string, string> | null,
    ]
  > = [
    [
      'units at the team level',
      { permission: 'write', units: ['repo.code', 'repo.issues'] },
      2,
      { 'repo.code': 'write', 'repo.issues': 'write' },
    ],
    [
      'unit keys are case-insensitive, unknown ones ignored',
      { permission: 'read', units: ['REPO.Code', 'repo.nope'] },
      1,
      { 'repo.code': 'read' },
    ],
    [
      'units_map wins over units',
      { permission: 'write', units: ['repo.wiki'], unitsMap: { 'repo.code': 'write' } },
      2,
      { 'repo.code': 'write' },
    ],
    [
      'units_map lowers the level to its lowest non-none level',
      { permission: 'write', unitsMap: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' } },
      1,
      { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' },
    ],
    [
      'units_map also raises a lower permission to its lowest level',
      { permission: 'read', unitsMap: { 'repo.code': 'write', 'repo.pulls': 'write' } },
      2,
      { 'repo.code': 'write', 'repo.pulls': 'write' },
    ],
    [
      'external units do not count for the level and stay at read',
      { permission: 'read', unitsMap: { 'repo.ext_issues': 'read', 'repo.ext_wiki': 'write', 'repo.code': 'write' } },
      2,
      { 'repo.ext_issues': 'read', 'repo.ext_wiki': 'read', 'repo.code': 'write' },
    ],
    [
      'a units_map all none gives level none',
      { permission: 'write', unitsMap: { 'repo.code': 'none' } },
      0,
      { 'repo.code': 'none' },
    ],
    ['no permission with units: units at none', { units: ['repo.code'] }, 0, { 'repo.code': 'none' }],
    ['both empty below admin: nothing', { permission: 'read' }, 1, null],
    [
      'only unknown keys count as empty',
      { permission: 'write', units: ['repo.x'], unitsMap: { 'repo.y': 'read' } },
      2,
      null,
    ],
  ];
  it.each(cases)('%s', (_name, body, level, expected) => {
    const unitsMap = knownUnitsMap(body.unitsMap);
    const accessMode = teamAccessMode(body.permission, unitsMap);
    expect(accessMode).toBe(level);
    const grants = teamUnitGrants(accessMode, body.units, unitsMap);
    if (expected === null) return expect(grants).toBeNull();
    const view = teamUnitsView(accessMode, grants!);
    expect(view.unitsMap).toEqual(expected);
    expect(new Set(view.units)).toEqual(new Set(Object.keys(expected)));
  });

  it('admin teams get admin on every unit, external tracker and wiki at read, whatever units were asked for', () => {
    for (const body of [
      { permission: 'admin' },
      { permission: 'admin', units: ['repo.code'] },
      { unitsMap: { 'repo.code': 'admin', 'repo.issues': 'admin' } },
    ]) {
      const unitsMap = knownUnitsMap(body.unitsMap);
      const accessMode = teamAccessMode(body.permission, unitsMap);
      expect(accessMode).toBe(3);
      const grants = teamUnitGrants(accessMode, (body as { units?: string[] }).units, unitsMap)!;
      expect(grants).toHaveLength(10);
      for (const grant of grants) expect(grant.accessMode).toBe(grant.type === 6 || grant.type === 7 ? 1 : 3);
    }
  });
});

describe('lowestUnitAccess', () => {
  it.each([
    [{ 'repo.code': 'admin', 'repo.issues': 'write' }, 2],
    [{ 'repo.code': 'none', 'repo.issues': 'read' }, 1],
    [{ 'repo.ext_wiki': 'read' }, 0],
    [{}, 0],
  ])('%j → %d', (map, level) => {
    expect(lowestUnitAccess(knownUnitsMap(map))).toBe(level);
  });
});

describe('teamUnitsView', () => {
  it('reports every unit at owner level for the Owners team', () => {
    const view = teamUnitsView(4, []);
    expect(view.units).toEqual(ALL_KEYS);
    expect(Object.values(view.unitsMap)).toEqual(ALL_KEYS.map(() => 'owner'));
  });
  it('reports every unit at admin for admin teams, external ones at read', () => {
    const view = teamUnitsView(3, []);
    expect(view.units).toEqual(ALL_KEYS);
    expect(view.unitsMap).toEqual(
      Object.fromEntries(ALL_KEYS.map((key) => [key, key.includes('ext_') ? 'read' : 'admin'])),
    );
  });
  it('lists stored units in unit order below admin', () => {
    const view = teamUnitsView(2, [
      { type: 3, accessMode: 2 },
      { type: 1, accessMode: 1 },
    ]);
    expect(view.units).toEqual(['repo.code', 'repo.pulls']);
    expect(view.unitsMap).toEqual({ 'repo.code': 'read', 'repo.pulls': 'write' });
  });
});
