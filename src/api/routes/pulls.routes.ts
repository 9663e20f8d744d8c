// Routes for pull requests (Forgejo: routers/api/v1/api.go, the /pulls group): readers of code see them, whether
// the caller reads the pulls unit is decided per pull request; writers of code merge.
import { repoAssignment } from '../assignment.ts';
import { mustNotBeArchived, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import {
  repoDownloadPullDiffOrPatch,
  repoEditPullRequest,
  repoGetPullRequest,
  repoGetPullRequestByBaseHead,
  repoGetPullRequestCommits,
  repoGetPullRequestFiles,
  repoListPullRequests,
  repoMergePullRequest,
  repoCancelScheduledAutoMerge,
  repoGetCommitPullRequest,
  repoPullRequestIsMerged,
} from '../handlers/issue/pull.ts';
import {
  repoCreatePullReview,
  repoCreatePullReviewRequests,
  repoDeletePullReviewRequests,
  repoGetPullReview,
  repoListPullReviews,
} from '../handlers/issue/pull-review.ts';
import { UnitType } from '../../domain/access/modes.ts';
import { route, type RouteGroup } from '../route.ts';

export type PullsOperation =
  | 'repoCreatePullReview'
  | 'repoCreatePullReviewRequests'
  | 'repoDeletePullReviewRequests'
  | 'repoDownloadPullDiffOrPatch'
  | 'repoEditPullRequest'
  | 'repoGetPullRequest'
  | 'repoGetPullRequestByBaseHead'
  | 'repoGetPullRequestCommits'
  | 'repoGetPullRequestFiles'
  | 'repoGetPullReview'
  | 'repoListPullRequests'
  | 'repoListPullReviews'
  | 'repoMergePullRequest'
  | 'repoPullRequestIsMerged'
  | 'repoCancelScheduledAutoMerge'
  | 'repoGetCommitPullRequest';

const pulls = [repoAssignment(), reqRepoReader(UnitType.code)];
const signedIn = [...pulls, reqToken()];

export const pullsRoutes: RouteGroup<PullsOperation> = {
  repoCreatePullReview: route(signedIn, repoCreatePullReview),
  repoCreatePullReviewRequests: route(signedIn, repoCreatePullReviewRequests),
  repoDeletePullReviewRequests: route(signedIn, repoDeletePullReviewRequests),
  repoDownloadPullDiffOrPatch: route(pulls, repoDownloadPullDiffOrPatch),
  repoEditPullRequest: route(signedIn, repoEditPullRequest),
  repoGetPullRequest: route(pulls, repoGetPullRequest),
  repoGetPullRequestByBaseHead: route(pulls, repoGetPullRequestByBaseHead),
  repoGetPullRequestCommits: route(pulls, repoGetPullRequestCommits),
  repoGetPullRequestFiles: route(pulls, repoGetPullRequestFiles),
  repoGetPullReview: route(pulls, repoGetPullReview),
  repoListPullRequests: route(pulls, repoListPullRequests),
  repoListPullReviews: route(pulls, repoListPullReviews),
  repoMergePullRequest: route([...signedIn, mustNotBeArchived(), reqRepoWriter(UnitType.code)], repoMergePullRequest),
  repoPullRequestIsMerged: route(pulls, repoPullRequestIsMerged),
  repoCancelScheduledAutoMerge: route([...signedIn, mustNotBeArchived()], repoCancelScheduledAutoMerge),
  repoGetCommitPullRequest: route(pulls, repoGetCommitPullRequest),
};
