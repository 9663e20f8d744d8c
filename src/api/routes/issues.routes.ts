// Routes for issues and pull requests (Forgejo: routers/api/v1/api.go, the /repos/{owner}/{repo}/issues and
// /pulls groups, and /repos/issues/search). The repository the caller may not see is 404 before anything else.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoReader, reqToken } from '../guards.ts';
import {
  issueCreateComment,
  issueCreateIssue,
  issueEditIssue,
  issueEditIssueDeadline,
  issueGetIssue,
  issueListIssues,
  issueSearchIssues,
} from '../handlers/issue/issue.ts';
import {
  issueDeleteComment,
  issueDeleteCommentDeprecated,
  issueEditComment,
  issueEditCommentDeprecated,
  issueGetComment,
  issueGetComments,
  issueGetRepoComments,
} from '../handlers/issue/comment.ts';
import {
  issueAddLabel,
  issueClearLabels,
  issueGetLabels,
  issueRemoveLabel,
  issueReplaceLabels,
} from '../handlers/issue/issue-label.ts';
import {
  issueDeleteCommentReaction,
  issueDeleteIssueReaction,
  issueGetCommentReactions,
  issueGetIssueReactions,
  issuePostCommentReaction,
  issuePostIssueReaction,
} from '../handlers/issue/reaction.ts';
import { repoCreatePullRequest } from '../handlers/issue/pull.ts';
import { UnitType } from '../../domain/access/modes.ts';
import { route, type RouteGroup } from '../route.ts';

export type IssuesOperation =
  | 'issueDeleteCommentReaction'
  | 'issueDeleteIssueReaction'
  | 'issueGetCommentReactions'
  | 'issueGetIssueReactions'
  | 'issuePostCommentReaction'
  | 'issuePostIssueReaction'
  | 'issueAddLabel'
  | 'issueClearLabels'
  | 'issueDeleteComment'
  | 'issueDeleteCommentDeprecated'
  | 'issueEditComment'
  | 'issueEditCommentDeprecated'
  | 'issueGetComment'
  | 'issueGetComments'
  | 'issueGetLabels'
  | 'issueGetRepoComments'
  | 'issueListIssues'
  | 'issueRemoveLabel'
  | 'issueReplaceLabels'
  | 'issueCreateComment'
  | 'issueCreateIssue'
  | 'issueEditIssue'
  | 'issueEditIssueDeadline'
  | 'issueGetIssue'
  | 'issueSearchIssues'
  | 'repoCreatePullRequest';

// Whether the caller reads the issue's unit (issues or pulls), or may write it, is decided per issue or comment.
const issue = [repoAssignment()];
const signedIn = [...issue, reqToken()];

export const issuesRoutes: RouteGroup<IssuesOperation> = {
  issueDeleteCommentReaction: route(signedIn, issueDeleteCommentReaction),
  issueDeleteIssueReaction: route(signedIn, issueDeleteIssueReaction),
  issueGetCommentReactions: route(issue, issueGetCommentReactions),
  issueGetIssueReactions: route(issue, issueGetIssueReactions),
  issuePostCommentReaction: route(signedIn, issuePostCommentReaction),
  issuePostIssueReaction: route(signedIn, issuePostIssueReaction),
  issueAddLabel: route(signedIn, issueAddLabel),
  issueClearLabels: route(signedIn, issueClearLabels),
  issueDeleteComment: route(signedIn, issueDeleteComment),
  issueDeleteCommentDeprecated: route(signedIn, issueDeleteCommentDeprecated),
  issueEditComment: route([...issue, mustNotBeArchived(), reqToken()], issueEditComment),
  issueEditCommentDeprecated: route(signedIn, issueEditCommentDeprecated),
  issueGetComment: route(issue, issueGetComment),
  issueGetComments: route(issue, issueGetComments),
  issueGetLabels: route(issue, issueGetLabels),
  issueGetRepoComments: route(issue, issueGetRepoComments),
  issueListIssues: route(issue, issueListIssues),
  issueRemoveLabel: route(signedIn, issueRemoveLabel),
  issueReplaceLabels: route(signedIn, issueReplaceLabels),
  issueCreateComment: route([repoAssignment(), reqToken()], issueCreateComment),
  issueCreateIssue: route([repoAssignment(), reqToken(), reqRepoReader(UnitType.issues)], issueCreateIssue),
  // Whether the issue's unit (issues or pulls) is readable is decided per issue.
  issueEditIssue: route([repoAssignment(), reqToken()], issueEditIssue),
  issueEditIssueDeadline: route([repoAssignment(), reqToken()], issueEditIssueDeadline),
  issueGetIssue: route([repoAssignment()], issueGetIssue),
  issueSearchIssues: route([], issueSearchIssues),
  repoCreatePullRequest: route(
    [repoAssignment(), reqToken(), reqRepoReader(UnitType.code), reqRepoReader(UnitType.pulls)],
    repoCreatePullRequest,
  ),
};
