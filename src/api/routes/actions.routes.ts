// Routes for actions. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

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
  adminCronList: notImplemented(),
  adminCronRun: notImplemented(),
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
