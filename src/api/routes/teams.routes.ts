// Routes for teams. Access to an organization or a team is decided by the team service, because a missing
// organization or team answers 404 before sign-in is asked for (Forgejo's orgAssignment runs first).
import { orgAddTeamMember, orgListTeamMember, orgListTeamMembers, orgRemoveTeamMember } from '../handlers/team/team-member.ts';
import { orgAddTeamRepository, orgListTeamRepo, orgListTeamRepos, orgRemoveTeamRepository } from '../handlers/team/team-repo.ts';
import {
  orgCreateTeam, orgDeleteTeam, orgEditTeam, orgGetTeam, orgListTeamActivityFeeds, orgListTeams, teamSearch, userListTeams,
} from '../handlers/team/team.ts';
import { reqToken } from '../guards.ts';
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

export const teamsRoutes: RouteGroup<TeamsOperation> = {
  orgAddTeamMember: route([], orgAddTeamMember),
  orgAddTeamRepository: route([], orgAddTeamRepository),
  orgCreateTeam: route([], orgCreateTeam),
  orgDeleteTeam: route([], orgDeleteTeam),
  orgEditTeam: route([], orgEditTeam),
  orgGetTeam: route([], orgGetTeam),
  orgListTeamActivityFeeds: route([], orgListTeamActivityFeeds),
  orgListTeamMember: route([], orgListTeamMember),
  orgListTeamMembers: route([], orgListTeamMembers),
  orgListTeamRepo: route([], orgListTeamRepo),
  orgListTeamRepos: route([], orgListTeamRepos),
  orgListTeams: route([], orgListTeams),
  orgRemoveTeamMember: route([], orgRemoveTeamMember),
  orgRemoveTeamRepository: route([], orgRemoveTeamRepository),
  teamSearch: route([], teamSearch),
  userListTeams: route([reqToken()], userListTeams),
};
