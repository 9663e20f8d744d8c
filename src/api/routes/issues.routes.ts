// Routes for issues. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

export type IssuesOperation =
  | 'issueCreateComment'
  | 'issueCreateIssue'
  | 'issueSearchIssues';

export const issuesRoutes: RouteGroup<IssuesOperation> = {
  issueCreateComment: notImplemented(),
  issueCreateIssue: notImplemented(),
  issueSearchIssues: notImplemented(),
};
