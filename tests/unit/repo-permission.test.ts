// The permission maths the API and git smart HTTP both decide with (src/domain/access/repo-permission.ts).
import { AccessMode, UnitType } from '../../src/domain/access/modes.ts';
import {
  canReadCode,
  canWriteCode,
  hasAccess,
  isRepoAdmin,
  type RepoPermission,
} from '../../src/domain/access/repo-permission.ts';

const ENABLED = [UnitType.code, UnitType.issues, UnitType.pulls];
const perUnit = (mode: number, units: Record<number, number>): RepoPermission => ({
  mode,
  unitModes: new Map(Object.entries(units).map(([type, m]) => [Number(type), m])),
  units: ENABLED,
});
const whole = (mode: number, units = ENABLED): RepoPermission => ({ mode, unitModes: null, units });

describe('repository permission maths', () => {
  // [name, permission, sees the repository, clones, pushes, administers]
  const cases: Array<[string, RepoPermission, boolean, boolean, boolean, boolean]> = [
    ['nothing', perUnit(AccessMode.none, {}), false, false, false, false],
    ['a read team with code', perUnit(AccessMode.read, { [UnitType.code]: AccessMode.read }), true, true, false, false],
    [
      'a team with issues but not code',
      perUnit(AccessMode.read, { [UnitType.issues]: AccessMode.read }),
      true,
      false,
      false,
      false,
    ],
    [
      'a team with write on issues, read on code',
      perUnit(AccessMode.write, { [UnitType.code]: AccessMode.read, [UnitType.issues]: AccessMode.write }),
      true,
      true,
      false,
      false,
    ],
    [
      'a write team with code',
      perUnit(AccessMode.write, { [UnitType.code]: AccessMode.write }),
      true,
      true,
      true,
      false,
    ],
    ['an owner-level team (owner of every unit)', whole(AccessMode.owner), true, true, true, true],
    ['a read collaborator', whole(AccessMode.read), true, true, false, false],
    [
      'an admin collaborator on a repository without code',
      whole(AccessMode.admin, [UnitType.issues]),
      true,
      false,
      false,
      true,
    ],
  ];
  it.each(cases)('%s', (_name, permission, sees, clones, pushes, administers) => {
    expect(hasAccess(permission)).toBe(sees);
    expect(canReadCode(permission)).toBe(clones);
    expect(canWriteCode(permission)).toBe(pushes);
    expect(isRepoAdmin(permission)).toBe(administers);
  });
});
