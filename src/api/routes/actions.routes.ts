// Routes for Actions and cron (Forgejo: routers/api/v1/api.go, the /orgs/{org}/actions and /admin groups).
// Organization secrets, variables and runner tokens are for owners: an organization the caller may not see is 404,
// a member who is not an owner 403. A repository's are for its admins (the runner token for its owner), the caller's
// own for any signed-in user.
import { orgAssignment, repoAssignment } from '../assignment.ts';
import { reqOrgOwnership, reqRepoAdmin, reqRepoOwner, reqSiteAdmin, reqToken } from '../guards.ts';
import { adminCronList, adminCronRun } from '../handlers/admin/cron.ts';
import { adminGetRunnerRegistrationToken } from '../handlers/admin/runner.ts';
import {
  createOrgVariable,
  deleteOrgSecret,
  deleteOrgVariable,
  getOrgVariable,
  getOrgVariablesList,
  orgGetRunnerRegistrationToken,
  orgListActionsSecrets,
  updateOrgSecret,
  updateOrgVariable,
} from '../handlers/org/action.ts';
import * as repo from '../handlers/repo/action.ts';
import * as user from '../handlers/user/action.ts';
import { route, type RouteGroup } from '../route.ts';

export type ActionsOperation =
  | 'adminCronList'
  | 'adminCronRun'
  | 'adminGetRunnerRegistrationToken'
  | 'createOrgVariable'
  | 'deleteOrgSecret'
  | 'deleteOrgVariable'
  | 'getOrgVariable'
  | 'getOrgVariablesList'
  | 'orgGetRunnerRegistrationToken'
  | 'orgListActionsSecrets'
  | 'updateOrgSecret'
  | 'updateOrgVariable'
  | 'repoListActionsSecrets'
  | 'updateRepoSecret'
  | 'deleteRepoSecret'
  | 'getRepoVariablesList'
  | 'getRepoVariable'
  | 'createRepoVariable'
  | 'updateRepoVariable'
  | 'deleteRepoVariable'
  | 'repoGetRunnerRegistrationToken'
  | 'updateUserSecret'
  | 'deleteUserSecret'
  | 'getUserVariablesList'
  | 'getUserVariable'
  | 'createUserVariable'
  | 'updateUserVariable'
  | 'deleteUserVariable'
  | 'userGetRunnerRegistrationToken';

const asOrgOwner = [orgAssignment(), reqToken(), reqOrgOwnership()];
const asRepoAdmin = [repoAssignment(), reqToken(), reqRepoAdmin()];
const asSelf = [reqToken()];

export const actionsRoutes: RouteGroup<ActionsOperation> = {
  adminCronList: route([reqSiteAdmin()], adminCronList),
  adminCronRun: route([reqSiteAdmin()], adminCronRun),
  adminGetRunnerRegistrationToken: route([reqSiteAdmin()], adminGetRunnerRegistrationToken),
  createOrgVariable: route(asOrgOwner, createOrgVariable),
  deleteOrgSecret: route(asOrgOwner, deleteOrgSecret),
  deleteOrgVariable: route(asOrgOwner, deleteOrgVariable),
  getOrgVariable: route(asOrgOwner, getOrgVariable),
  getOrgVariablesList: route(asOrgOwner, getOrgVariablesList),
  orgGetRunnerRegistrationToken: route(asOrgOwner, orgGetRunnerRegistrationToken),
  orgListActionsSecrets: route(asOrgOwner, orgListActionsSecrets),
  updateOrgSecret: route(asOrgOwner, updateOrgSecret),
  updateOrgVariable: route(asOrgOwner, updateOrgVariable),
  repoListActionsSecrets: route(asRepoAdmin, repo.repoListActionsSecrets),
  updateRepoSecret: route(asRepoAdmin, repo.updateRepoSecret),
  deleteRepoSecret: route(asRepoAdmin, repo.deleteRepoSecret),
  getRepoVariablesList: route(asRepoAdmin, repo.getRepoVariablesList),
  getRepoVariable: route(asRepoAdmin, repo.getRepoVariable),
  createRepoVariable: route(asRepoAdmin, repo.createRepoVariable),
  updateRepoVariable: route(asRepoAdmin, repo.updateRepoVariable),
  deleteRepoVariable: route(asRepoAdmin, repo.deleteRepoVariable),
  repoGetRunnerRegistrationToken: route(
    [repoAssignment(), reqToken(), reqRepoOwner()],
    repo.repoGetRunnerRegistrationToken,
  ),
  updateUserSecret: route(asSelf, user.updateUserSecret),
  deleteUserSecret: route(asSelf, user.deleteUserSecret),
  getUserVariablesList: route(asSelf, user.getUserVariablesList),
  getUserVariable: route(asSelf, user.getUserVariable),
  createUserVariable: route(asSelf, user.createUserVariable),
  updateUserVariable: route(asSelf, user.updateUserVariable),
  deleteUserVariable: route(asSelf, user.deleteUserVariable),
  userGetRunnerRegistrationToken: route(asSelf, user.userGetRunnerRegistrationToken),
};
