// Forgejo's team record (services/convert/convert.go ToTeams).
import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import { accessModeName } from '../domain/access/modes.ts';
import { teamUnitsView } from '../domain/access/team-units.ts';
import type { TeamWithUnits } from '../db/team.repository.ts';
import { toOrganization } from './org.ts';
import type { UserView } from './user.ts';

export type ApiTeam = components['schemas']['Team'];

/** With `org`, the team carries its organization (single team, /user/teams); org-level lists leave it out. */
export function toTeam(team: TeamWithUnits, view: UserView, org?: User): ApiTeam {
  const { units, unitsMap } = teamUnitsView(team.accessMode, team.units);
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    ...(org ? { organization: toOrganization(org, view) } : {}),
    includes_all_repositories: team.includesAllRepositories,
    can_create_org_repo: team.canCreateOrgRepo,
    permission: accessModeName(team.accessMode),
    units,
    units_map: unitsMap,
  };
}
