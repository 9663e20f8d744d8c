// Routes for notifications (Forgejo: routers/api/v1/api.go, the /notifications group and the repository's
// /notifications): every one acts on the signed-in caller's threads.
import { repoAssignment } from '../assignment.ts';
import { reqToken } from '../guards.ts';
import {
  notifyGetList,
  notifyGetRepoList,
  notifyGetThread,
  notifyNewAvailable,
  notifyReadList,
  notifyReadRepoList,
  notifyReadThread,
} from '../handlers/notify/notification.ts';
import { userCurrentCheckSubscription } from '../handlers/repo/subscription.ts';
import { route, type RouteGroup } from '../route.ts';

export type NotificationsOperation =
  | 'notifyGetList'
  | 'notifyGetRepoList'
  | 'notifyGetThread'
  | 'notifyNewAvailable'
  | 'notifyReadList'
  | 'notifyReadRepoList'
  | 'notifyReadThread'
  | 'userCurrentCheckSubscription';

export const notificationsRoutes: RouteGroup<NotificationsOperation> = {
  notifyGetList: route([reqToken()], notifyGetList),
  notifyGetRepoList: route([repoAssignment(), reqToken()], notifyGetRepoList),
  notifyGetThread: route([reqToken()], notifyGetThread),
  notifyNewAvailable: route([reqToken()], notifyNewAvailable),
  notifyReadList: route([reqToken()], notifyReadList),
  notifyReadRepoList: route([repoAssignment(), reqToken()], notifyReadRepoList),
  notifyReadThread: route([reqToken()], notifyReadThread),
  userCurrentCheckSubscription: route([repoAssignment(), reqToken()], userCurrentCheckSubscription),
};
