// Routes for teams. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

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
  orgAddTeamMember: notImplemented(),
  orgAddTeamRepository: notImplemented(),
  orgCreateTeam: notImplemented(),
  orgDeleteTeam: notImplemented(),
  orgEditTeam: notImplemented(),
  orgGetTeam: notImplemented(),
  orgListTeamActivityFeeds: notImplemented(),
  orgListTeamMember: notImplemented(),
  orgListTeamMembers: notImplemented(),
  orgListTeamRepo: notImplemented(),
  orgListTeamRepos: notImplemented(),
  orgListTeams: notImplemented(),
  orgRemoveTeamMember: notImplemented(),
  orgRemoveTeamRepository: notImplemented(),
  teamSearch: notImplemented(),
  userListTeams: notImplemented(),
};
