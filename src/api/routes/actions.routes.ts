// Routes for Actions and cron (Forgejo: routers/api/v1/api.go, the /orgs/{org}/actions and /admin groups).
// Organization secrets, variables and runner tokens are for owners: an organization the caller may not see is 404,
// a member who is not an owner 403.
import { orgAssignment } from '../assignment.ts';
import { reqOrgOwnership, reqSiteAdmin, reqToken } from '../guards.ts';
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
  | 'updateOrgVariable';

const asOrgOwner = [orgAssignment(), reqToken(), reqOrgOwnership()];

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
};
