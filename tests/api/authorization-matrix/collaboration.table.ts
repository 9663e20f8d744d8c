// Collaborators, topics, repository labels and milestones (Forgejo: routers/api/v1/api.go). Columns: see matrix.ts;
// the repository's visibility decides who sees it (repo-rows.ts).
import { uniqueName } from '../../helpers/factories.ts';
import type { MatrixRow } from './matrix.ts';
import { newPublicKey } from './world.ts';
import {
  adminReaders,
  admins,
  issueContentWriters,
  issueReaders,
  issueWriters,
  readers,
  seenBy,
  signedInIssueReaders,
  signedInReaders,
} from './repo-rows.ts';

/** Signed in and able to see the repository, reading. */
const signedInRead = seenBy([401, 200, 200, 200, 200, 200, 200, 200], [0, 0, 0, 200, 200, 200, 0, 200]);

//                                         anon outsd member team owner admin pubOnly readOnly
export const COLLABORATION_ROWS: readonly MatrixRow[] = [
  {
    operation: 'repoListCollaborators',
    expected: seenBy([401, 200, 200, 200, 200, 200, 200, 200], [0, 0, 0, 200, 200, 200, 0, 200]),
  },
  {
    operation: 'repoCheckCollaborator',
    // The org member is no collaborator: whoever gets past the guards learns so (404).
    params: { collaborator: 'orgMember' },
    expected: seenBy([401, 404, 404, 404, 404, 404, 404, 404], [0, 0, 0, 404, 404, 404, 0, 404]),
  },
  {
    operation: 'repoAddCollaborator',
    params: { collaborator: 'new:user' },
    body: { permission: 'read' },
    expected: admins(204),
  },
  { operation: 'repoDeleteCollaborator', params: { collaborator: 'new:user' }, expected: admins(204) },
  {
    operation: 'repoGetRepoPermissions',
    // About the org member: the member themself, repository admins and site admins may ask.
    params: { collaborator: 'orgMember' },
    expected: seenBy([401, 403, 200, 403, 200, 200, 200, 200], [0, 0, 0, 403, 200, 200, 0, 200]),
  },
  { operation: 'repoListTopics', expected: readers(200) },
  { operation: 'repoUpdateTopics', body: { topics: ['matrix'] }, expected: admins(204) },
  { operation: 'repoAddTopic', params: { topic: 'new:topicName' }, expected: admins(204) },
  { operation: 'repoDeleteTopic', params: { topic: 'new:topic' }, expected: admins(204) },
  { operation: 'issueListLabels', expected: readers(200) },
  { operation: 'issueGetLabel', params: { id: 'new:repoLabel' }, expected: readers(200) },
  { operation: 'issueCreateLabel', body: { name: 'matrix', color: '#00aabb' }, expected: issueWriters(201) },
  {
    operation: 'issueEditLabel',
    params: { id: 'new:repoLabel' },
    body: { description: 'edited' },
    expected: issueWriters(200),
  },
  { operation: 'issueDeleteLabel', params: { id: 'new:repoLabel' }, expected: issueWriters(204) },
  { operation: 'issueGetMilestonesList', expected: readers(200) },
  { operation: 'issueGetMilestone', params: { id: 'new:milestone' }, expected: readers(200) },
  { operation: 'issueCreateMilestone', body: { title: 'matrix' }, expected: issueWriters(201) },
  {
    operation: 'issueEditMilestone',
    params: { id: 'new:milestone' },
    body: { description: 'edited' },
    expected: issueWriters(200),
  },
  { operation: 'issueDeleteMilestone', params: { id: 'new:milestone' }, expected: issueWriters(204) },
  { operation: 'issueListIssues', expected: readers(200) },
  { operation: 'issueGetRepoComments', expected: readers(200) },
  { operation: 'issueGetComments', expected: issueReaders(200) },
  { operation: 'issueGetComment', params: { id: 'new:comment' }, expected: issueReaders(200) },
  {
    operation: 'issueEditComment',
    params: { id: 'new:comment' },
    body: { body: 'edited' },
    expected: issueContentWriters(200),
  },
  {
    operation: 'issueEditCommentDeprecated',
    params: { id: 'new:comment' },
    body: { body: 'edited' },
    expected: issueContentWriters(200),
  },
  { operation: 'issueDeleteComment', params: { id: 'new:comment' }, expected: issueContentWriters(204) },
  { operation: 'issueDeleteCommentDeprecated', params: { id: 'new:comment' }, expected: issueContentWriters(204) },
  { operation: 'issueGetLabels', expected: issueReaders(200) },
  { operation: 'issueAddLabel', body: { labels: [] }, expected: issueContentWriters(200) },
  { operation: 'issueReplaceLabels', body: { labels: [] }, expected: issueContentWriters(200) },
  { operation: 'issueClearLabels', expected: issueContentWriters(204) },
  { operation: 'issueRemoveLabel', params: { id: 'label' }, expected: issueContentWriters(204) },
  // The shared repositories hold no pull request: issue 1 is an issue, so whoever gets past the guards learns
  // there is no such pull request (404).
  { operation: 'repoListPullRequests', expected: readers(200) },
  { operation: 'repoGetPullRequest', expected: readers(404) },
  {
    operation: 'repoGetPullRequestByBaseHead',
    params: { base: 'missingRef', head: 'missingRef' },
    expected: readers(404),
  },
  { operation: 'repoGetPullRequestFiles', expected: readers(404) },
  { operation: 'repoGetPullRequestCommits', expected: readers(404) },
  { operation: 'repoDownloadPullDiffOrPatch', params: { diffType: 'diff' }, expected: readers(404) },
  { operation: 'repoPullRequestIsMerged', expected: readers(404) },
  { operation: 'repoListPullReviews', expected: readers(404) },
  { operation: 'repoGetPullReview', params: { id: 'issue' }, expected: readers(404) },
  { operation: 'repoEditPullRequest', body: { title: 'edited' }, expected: signedInReaders(404) },
  { operation: 'repoCreatePullReview', body: { event: 'COMMENT', body: 'hm' }, expected: signedInReaders(404) },
  {
    operation: 'repoMergePullRequest',
    body: { Do: 'merge' },
    expected: seenBy([401, 403, 403, 404, 404, 404, 404, 403], [0, 0, 0, 404, 404, 404, 0, 403]),
  },
  { operation: 'repoListHooks', expected: adminReaders(200) },
  { operation: 'repoGetHook', params: { id: 'new:repoHook' }, expected: adminReaders(200) },
  {
    operation: 'repoCreateHook',
    body: { type: 'gitea', config: { url: 'https://hooks.example/r', content_type: 'json' }, events: ['push'] },
    expected: admins(201),
  },
  { operation: 'repoEditHook', params: { id: 'new:repoHook' }, body: { active: true }, expected: admins(200) },
  { operation: 'repoDeleteHook', params: { id: 'new:repoHook' }, expected: admins(204) },
  { operation: 'repoTestHook', params: { id: 'new:repoHook' }, expected: admins(204) },
  { operation: 'listForks', expected: readers(200) },
  {
    operation: 'createFork',
    // A fresh repository to fork each time one is forked: one owner forks a repository once.
    params: { repo: 'new:repo' },
    body: {},
    expected: seenBy([401, 202, 202, 202, 202, 202, 202, 403], [0, 0, 0, 202, 202, 202, 0, 403]),
  },
  { operation: 'issueGetIssueReactions', expected: issueReaders(200) },
  {
    operation: 'issuePostIssueReaction',
    // Each user reacts once to issue 1; the public-only token's owner already has (200).
    body: { content: 'heart' },
    expected: seenBy([401, 201, 201, 201, 201, 201, 200, 403], [0, 0, 0, 404, 201, 201, 0, 403]),
  },
  { operation: 'issueDeleteIssueReaction', body: { content: 'heart' }, expected: signedInIssueReaders(200) },
  { operation: 'issueGetCommentReactions', params: { id: 'new:comment' }, expected: issueReaders(200) },
  {
    operation: 'issuePostCommentReaction',
    params: { id: 'new:comment' },
    body: { content: 'heart' },
    expected: signedInIssueReaders(201),
  },
  {
    operation: 'issueDeleteCommentReaction',
    params: { id: 'new:comment' },
    body: { content: 'heart' },
    expected: signedInIssueReaders(200),
  },
  { operation: 'repoCreatePullReviewRequests', body: { reviewers: [] }, expected: signedInReaders(404) },
  { operation: 'repoDeletePullReviewRequests', body: { reviewers: [] }, expected: signedInReaders(404) },
  // Actions secrets and variables, the runner token (reqToken, reqRepoAdmin), the activity feed (whoever sees
  // the repository), teams, assignees and reviewers (reqToken, reqAnyRepoReader; team changes reqRepoAdmin).
  { operation: 'repoListActionsSecrets', expected: adminReaders(200) },
  {
    operation: 'updateRepoSecret',
    params: { secretname: 'new:variableName' },
    body: { data: 'value' },
    expected: admins(201),
  },
  { operation: 'deleteRepoSecret', params: { secretname: 'new:repoSecret' }, expected: admins(204) },
  { operation: 'getRepoVariablesList', expected: adminReaders(200) },
  { operation: 'getRepoVariable', params: { variablename: 'new:repoVariable' }, expected: adminReaders(200) },
  {
    operation: 'createRepoVariable',
    params: { variablename: 'new:variableName' },
    body: { value: 'value' },
    expected: admins(204),
  },
  {
    operation: 'updateRepoVariable',
    params: { variablename: 'new:repoVariable' },
    body: { value: 'edited' },
    expected: admins(204),
  },
  { operation: 'deleteRepoVariable', params: { variablename: 'new:repoVariable' }, expected: admins(204) },
  { operation: 'repoGetRunnerRegistrationToken', expected: adminReaders(200) },
  { operation: 'repoListActivityFeeds', expected: readers(200) },
  { operation: 'repoListTeams', expected: signedInRead },
  { operation: 'repoCheckTeam', params: { team: 'teamName' }, expected: signedInRead },
  { operation: 'repoAddTeam', params: { team: 'new:teamName' }, expected: admins(204) },
  { operation: 'repoDeleteTeam', params: { team: 'new:teamOfRepo' }, expected: admins(204) },
  { operation: 'repoGetAssignees', expected: signedInRead },
  { operation: 'repoGetReviewers', expected: signedInRead },
  { operation: 'repoGetIssueConfig', expected: readers(200) },
  { operation: 'repoValidateIssueConfig', expected: readers(200) },
  { operation: 'repoGetIssueTemplates', expected: readers(200) },
  // Deploy keys, tag protections and the avatar are the repository admin's (Forgejo: reqAdmin()); id `issue` names
  // no key or rule (the tag protections are created after the rows that look one up).
  { operation: 'repoListKeys', expected: adminReaders(200) },
  { operation: 'repoGetKey', params: { id: 'issue' }, expected: adminReaders(404) },
  {
    operation: 'repoCreateKey',
    body: () => ({ title: uniqueName('key'), key: newPublicKey(), read_only: true }),
    expected: admins(201),
  },
  { operation: 'repoDeleteKey', params: { id: 'issue' }, expected: admins(204) },
  { operation: 'repoListTagProtection', expected: adminReaders(200) },
  { operation: 'repoGetTagProtection', params: { id: 'issue' }, expected: adminReaders(404) },
  { operation: 'repoEditTagProtection', params: { id: 'issue' }, body: {}, expected: admins(404) },
  { operation: 'repoDeleteTagProtection', params: { id: 'issue' }, expected: admins(404) },
  {
    operation: 'repoCreateTagProtection',
    body: () => ({ name_pattern: uniqueName('v'), whitelist_teams: ['Owners'] }),
    expected: admins(201),
  },
  {
    operation: 'repoUpdateAvatar',
    body: { image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' },
    expected: admins(204),
  },
  { operation: 'repoDeleteAvatar', expected: admins(204) },
  // The shared repositories have no commits and issue `issue` is no pull request.
  { operation: 'repoGetCommitPullRequest', params: { sha: 'missingRef' }, expected: readers(404) },
  { operation: 'repoCancelScheduledAutoMerge', expected: signedInReaders(404) },
  {
    operation: 'issueEditIssueDeadline',
    body: { due_date: '2030-01-01T00:00:00Z' },
    expected: issueContentWriters(201),
  },
];
