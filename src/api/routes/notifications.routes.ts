// Routes for notifications. An operation bound to notImplemented() answers 501 until it is built.
import { notImplemented, type RouteGroup } from '../route.ts';

export type NotificationsOperation =
  | 'notifyGetList'
  | 'notifyGetThread'
  | 'notifyNewAvailable'
  | 'notifyReadList'
  | 'notifyReadThread';

export const notificationsRoutes: RouteGroup<NotificationsOperation> = {
  notifyGetList: notImplemented(),
  notifyGetThread: notImplemented(),
  notifyNewAvailable: notImplemented(),
  notifyReadList: notImplemented(),
  notifyReadThread: notImplemented(),
};
