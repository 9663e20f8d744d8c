// Routes for teams (Forgejo: routers/api/v1/api.go, the /teams/{teamid} and /orgs/{org}/teams groups).
import {
  orgAddTeamMember,
  orgListTeamMember,
  orgListTeamMembers,
  orgRemoveTeamMember,
} from '../handlers/team/team-member.ts';
import {
  orgAddTeamRepository,
  orgListTeamRepo,
  orgListTeamRepos,
  orgRemoveTeamRepository,
} from '../handlers/team/team-repo.ts';
import {
  orgCreateTeam,
  orgDeleteTeam,
  orgEditTeam,
  orgGetTeam,
  orgListTeamActivityFeeds,
  orgListTeams,
  teamSearch,
  userListTeams,
} from '../handlers/team/team.ts';
import { orgAssignment, teamAssignment } from '../assignment.ts';
import { reqOrgMembership, reqOrgOwnership, reqTeamMembership, reqToken } from '../guards.ts';
import { route, type RouteGroup } from '../route.ts';

export type TeamsOperation =
  | 'orgAddTeamMember'
  | 'orgAddTeamRepository'
  | 'orgCreateTeam'
  | 'orgDeleteTeam'
  | 'orgEditTeam'
  | 'orgGetTeam'
  | 'orgListTeamActivityFeeds'
  | 'orgListTeamMember'
  | 'orgListTeamMembers'
  | 'orgListTeamRepo'
  | 'orgListTeamRepos'
  | 'orgListTeams'
  | 'orgRemoveTeamMember'
  | 'orgRemoveTeamRepository'
  | 'teamSearch'
  | 'userListTeams';

/** `/teams/{id}/…`: a missing team is 404 for anyone; then a signed-in site admin, org owner or team member. */
const inTeam = [teamAssignment(), reqToken(), reqTeamMembership()];
/** Changes to a team need the organization's owner; in a team's path others get 404 (Forgejo: reqOrgOwnership). */
const teamOwner = [...inTeam, reqOrgOwnership()];
const orgMember = [orgAssignment(), reqToken(), reqOrgMembership()];

export const teamsRoutes: RouteGroup<TeamsOperation> = {
  orgAddTeamMember: route(teamOwner, orgAddTeamMember),
  // Adding or removing a repository needs admin access on it, which the service checks on the named repository.
  orgAddTeamRepository: route(inTeam, orgAddTeamRepository),
  orgCreateTeam: route([...orgMember, reqOrgOwnership()], orgCreateTeam),
  orgDeleteTeam: route(teamOwner, orgDeleteTeam),
  orgEditTeam: route(teamOwner, orgEditTeam),
  orgGetTeam: route(inTeam, orgGetTeam),
  orgListTeamActivityFeeds: route(inTeam, orgListTeamActivityFeeds),
  orgListTeamMember: route(inTeam, orgListTeamMember),
  orgListTeamMembers: route([...inTeam, reqOrgMembership()], orgListTeamMembers),
  orgListTeamRepo: route(inTeam, orgListTeamRepo),
  orgListTeamRepos: route(inTeam, orgListTeamRepos),
  orgListTeams: route(orgMember, orgListTeams),
  orgRemoveTeamMember: route(teamOwner, orgRemoveTeamMember),
  orgRemoveTeamRepository: route(inTeam, orgRemoveTeamRepository),
  teamSearch: route(orgMember, teamSearch),
  userListTeams: route([reqToken()], userListTeams),
};
