// Routes for actions. An operation bound to notImplemented() answers 501 until it is built.
import { reqSiteAdmin } from '../guards.ts';
import { adminCronList, adminCronRun } from '../handlers/admin/cron.ts';
import { notImplemented, route, type RouteGroup } from '../route.ts';

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

export const actionsRoutes: RouteGroup<ActionsOperation> = {
  adminCronList: route([reqSiteAdmin()], adminCronList),
  adminCronRun: route([reqSiteAdmin()], adminCronRun),
  adminGetRunnerRegistrationToken: notImplemented(),
  createOrgVariable: notImplemented(),
  deleteOrgSecret: notImplemented(),
  deleteOrgVariable: notImplemented(),
  getOrgVariable: notImplemented(),
  getOrgVariablesList: notImplemented(),
  orgGetRunnerRegistrationToken: notImplemented(),
  orgListActionsSecrets: notImplemented(),
  updateOrgSecret: notImplemented(),
  updateOrgVariable: notImplemented(),
};
