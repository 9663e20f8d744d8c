// Routes for working together on a repository (Forgejo: routers/api/v1/api.go, the /collaborators, /hooks,
// /topics, /labels and /milestones groups): readers list, admins manage collaborators, hooks and topics, writers
// of issues or pull requests manage labels and milestones.
import { repoAssignment } from '../assignment.ts';
import { reqAnyRepoReader, reqRepoAdmin, reqRepoReader, reqRepoWriter, reqToken } from '../guards.ts';
import { enforceQuota } from '../quota-guard.ts';
import {
  repoAddCollaborator,
  repoCheckCollaborator,
  repoDeleteCollaborator,
  repoGetRepoPermissions,
  repoListCollaborators,
} from '../handlers/repo/collaborator.ts';
import {
  repoCreateHook,
  repoDeleteHook,
  repoEditHook,
  repoGetHook,
  repoListHooks,
  repoTestHook,
} from '../handlers/repo/hook.ts';
import { createFork, listForks } from '../handlers/repo/fork.ts';
import {
  repoAddTopic,
  repoDeleteTopic,
  repoListTopics,
  repoUpdateTopics,
  topicSearch,
} from '../handlers/repo/topic.ts';
import {
  issueCreateLabel,
  issueDeleteLabel,
  issueEditLabel,
  issueGetLabel,
  issueListLabels,
} from '../handlers/issue/label.ts';
import {
  issueCreateMilestone,
  issueDeleteMilestone,
  issueEditMilestone,
  issueGetMilestone,
  issueGetMilestonesList,
} from '../handlers/issue/milestone.ts';
import { UnitType } from '../../domain/access/modes.ts';
import { route, type RouteGroup } from '../route.ts';

export type CollaborationOperation =
  | 'createFork'
  | 'listForks'
  | 'issueCreateLabel'
  | 'issueCreateMilestone'
  | 'issueDeleteLabel'
  | 'issueDeleteMilestone'
  | 'issueEditLabel'
  | 'issueEditMilestone'
  | 'issueGetLabel'
  | 'issueGetMilestone'
  | 'issueGetMilestonesList'
  | 'issueListLabels'
  | 'repoAddCollaborator'
  | 'repoCreateHook'
  | 'repoDeleteHook'
  | 'repoEditHook'
  | 'repoGetHook'
  | 'repoListHooks'
  | 'repoTestHook'
  | 'repoAddTopic'
  | 'repoCheckCollaborator'
  | 'repoDeleteCollaborator'
  | 'repoDeleteTopic'
  | 'repoGetRepoPermissions'
  | 'repoListCollaborators'
  | 'repoListTopics'
  | 'repoUpdateTopics'
  | 'topicSearch';

const collaborators = [repoAssignment(), reqToken()];
const hooks = [repoAssignment(), reqToken(), reqRepoAdmin()];
const topics = [repoAssignment(), reqAnyRepoReader()];
const repo = [repoAssignment()];
const issueWriter = [...repo, reqToken(), reqRepoWriter(UnitType.issues, UnitType.pulls)];

export const collaborationRoutes: RouteGroup<CollaborationOperation> = {
  createFork: route(
    [repoAssignment(), reqToken(), reqRepoReader(UnitType.code), enforceQuota('size:repos:all', 'doer')],
    createFork,
  ),
  listForks: route(repo, listForks),
  issueCreateLabel: route(issueWriter, issueCreateLabel),
  issueCreateMilestone: route(issueWriter, issueCreateMilestone),
  issueDeleteLabel: route(issueWriter, issueDeleteLabel),
  issueDeleteMilestone: route(issueWriter, issueDeleteMilestone),
  issueEditLabel: route(issueWriter, issueEditLabel),
  issueEditMilestone: route(issueWriter, issueEditMilestone),
  issueGetLabel: route(repo, issueGetLabel),
  issueGetMilestone: route(repo, issueGetMilestone),
  issueGetMilestonesList: route(repo, issueGetMilestonesList),
  issueListLabels: route(repo, issueListLabels),
  repoCreateHook: route(hooks, repoCreateHook),
  repoDeleteHook: route(hooks, repoDeleteHook),
  repoEditHook: route(hooks, repoEditHook),
  repoGetHook: route(hooks, repoGetHook),
  repoListHooks: route(hooks, repoListHooks),
  repoTestHook: route(hooks, repoTestHook),
  repoAddCollaborator: route([...collaborators, reqRepoAdmin()], repoAddCollaborator),
  repoAddTopic: route([...topics, reqToken(), reqRepoAdmin()], repoAddTopic),
  repoCheckCollaborator: route([...collaborators, reqAnyRepoReader()], repoCheckCollaborator),
  repoDeleteCollaborator: route([...collaborators, reqRepoAdmin()], repoDeleteCollaborator),
  repoDeleteTopic: route([...topics, reqToken(), reqRepoAdmin()], repoDeleteTopic),
  repoGetRepoPermissions: route(collaborators, repoGetRepoPermissions),
  repoListCollaborators: route([...collaborators, reqAnyRepoReader()], repoListCollaborators),
  repoListTopics: route(topics, repoListTopics),
  repoUpdateTopics: route([...topics, reqToken(), reqRepoAdmin()], repoUpdateTopics),
  topicSearch: route([], topicSearch),
};
