// Collaborators, topics, repository labels and milestones (Forgejo: routers/api/v1/api.go). Columns: see matrix.ts;
// the repository's visibility decides who sees it (repo-rows.ts).
import type { MatrixRow } from './matrix.ts';
import { admins, issueContentWriters, issueReaders, issueWriters, readers, seenBy } from './repo-rows.ts';

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
];
