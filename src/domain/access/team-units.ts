// How a team's permission and units are derived from a create/edit body, and how they read back
// (Forgejo: routers/api/v1/org/team.go, models/organization/team.go, models/unit/unit.go).
import {
  AccessMode,
  type AccessModeValue,
  accessModeName,
  EXTERNAL_UNIT_TYPES,
  UNITS,
  unitKeyOfType,
  unitTypeOfKey,
} from './modes.ts';

export interface TeamUnitGrant {
  type: number;
  accessMode: number;
}

/** Callers may ask for read, write or admin; anything else (owner included) is none, as in Forgejo. */
export function parseTeamPermission(text: string | undefined): AccessModeValue {
  switch ((text ?? '').toLowerCase()) {
    case 'read':
      return AccessMode.read;
    case 'write':
      return AccessMode.write;
    case 'admin':
      return AccessMode.admin;
    default:
      return AccessMode.none;
  }
}

function isExternal(type: number): boolean {
  return EXTERNAL_UNIT_TYPES.includes(type);
}

/** External tracker and wiki only link elsewhere: a team never gets more than read on them. */
function capped(type: number, mode: number): number {
  return isExternal(type) ? Math.min(mode, AccessMode.read) : mode;
}

/** units_map with unknown unit keys dropped, keyed by unit type. */
export function knownUnitsMap(unitsMap: Record<string, string> | undefined): Map<number, AccessModeValue> {
  const result = new Map<number, AccessModeValue>();
  for (const [key, level] of Object.entries(unitsMap ?? {})) {
    const type = unitTypeOfKey(key);
    if (type !== undefined) result.set(type, parseTeamPermission(level));
  }
  return result;
}

/** The lowest level above none in a units map, external units left out (none when every unit is none). */
export function lowestUnitAccess(unitsMap: Map<number, AccessModeValue>): AccessModeValue {
  let lowest: AccessModeValue = AccessMode.none;
  for (const [type, mode] of unitsMap) {
    if (isExternal(type) || mode === AccessMode.none) continue;
    if (lowest === AccessMode.none || mode < lowest) lowest = mode;
  }
  return lowest;
}

/** The team level from `permission`: below admin, a non-empty units_map lowers it to its lowest level. */
export function teamAccessMode(
  permission: string | undefined,
  unitsMap: Map<number, AccessModeValue>,
): AccessModeValue {
  const requested = parseTeamPermission(permission);
  return requested < AccessMode.admin && unitsMap.size > 0 ? lowestUnitAccess(unitsMap) : requested;
}

/** Admin teams: every unit at admin, external tracker and wiki at read. */
export function adminTeamUnits(): TeamUnitGrant[] {
  return UNITS.map(({ type }) => ({ type, accessMode: capped(type, AccessMode.admin) }));
}

/**
 * The units a team at `accessMode` gets from the body: admin units at admin level and above; below admin the
 * units_map when non-empty, else `units` at the team level; null when the body names no unit.
 */
export function teamUnitGrants(
  accessMode: number,
  units: readonly string[] | undefined,
  unitsMap: Map<number, AccessModeValue>,
): TeamUnitGrant[] | null {
  if (accessMode >= AccessMode.admin) return adminTeamUnits();
  if (unitsMap.size > 0) return [...unitsMap].map(([type, mode]) => ({ type, accessMode: capped(type, mode) }));
  const types = new Set((units ?? []).map(unitTypeOfKey).filter((type): type is number => type !== undefined));
  if (types.size > 0) return [...types].map((type) => ({ type, accessMode: capped(type, accessMode) }));
  return null;
}

export interface TeamUnitsView {
  units: string[];
  unitsMap: Record<string, string>;
}

/** `units` and `units_map` as the API shows them: admin and owner teams report every unit at the team level. */
export function teamUnitsView(accessMode: number, stored: readonly TeamUnitGrant[]): TeamUnitsView {
  const ordered = (grants: readonly TeamUnitGrant[]) => [...grants].sort((a, b) => a.type - b.type);
  const grants =
    accessMode >= AccessMode.admin
      ? UNITS.map(({ type }) => ({
          type,
          accessMode: accessMode === AccessMode.admin ? capped(type, accessMode) : accessMode,
        }))
      : ordered(stored.filter((grant) => unitKeyOfType(grant.type) !== undefined));
  const unitsMap: Record<string, string> = {};
  for (const grant of grants) unitsMap[unitKeyOfType(grant.type)!] = accessModeName(grant.accessMode);
  return { units: grants.map((grant) => unitKeyOfType(grant.type)!), unitsMap };
}
