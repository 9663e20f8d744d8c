// Routes for issues and pull requests (Forgejo: routers/api/v1/api.go, the /repos/{owner}/{repo}/issues and
// /pulls groups, and /repos/issues/search). The repository the caller may not see is 404 before anything else.
import { repoAssignment } from '../assignment.ts';
import { reqRepoReader, reqToken } from '../guards.ts';
import {
  issueCreateComment,
  issueCreateIssue,
  issueEditIssue,
  issueGetIssue,
  issueSearchIssues,
} from '../handlers/issue/issue.ts';
import { repoCreatePullRequest } from '../handlers/issue/pull.ts';
import { UnitType } from '../../domain/access/modes.ts';
import { route, type RouteGroup } from '../route.ts';

export type IssuesOperation =
  | 'issueCreateComment'
  | 'issueCreateIssue'
  | 'issueEditIssue'
  | 'issueGetIssue'
  | 'issueSearchIssues'
  | 'repoCreatePullRequest';

export const issuesRoutes: RouteGroup<IssuesOperation> = {
  issueCreateComment: route([repoAssignment(), reqToken()], issueCreateComment),
  issueCreateIssue: route([repoAssignment(), reqToken(), reqRepoReader(UnitType.issues)], issueCreateIssue),
  // Whether the issue's unit (issues or pulls) is readable is decided per issue.
  issueEditIssue: route([repoAssignment(), reqToken()], issueEditIssue),
  issueGetIssue: route([repoAssignment()], issueGetIssue),
  issueSearchIssues: route([], issueSearchIssues),
  repoCreatePullRequest: route(
    [repoAssignment(), reqToken(), reqRepoReader(UnitType.code), reqRepoReader(UnitType.pulls)],
    repoCreatePullRequest,
  ),
};
