// Routes for the avatar images that `avatar_url` points at (outside /api/v1, spec/anvil-root.swagger.json).
import { getAvatar, getDefaultAvatar } from '../handlers/misc/avatar.ts';
import { route, type RouteGroup } from '../route.ts';

export type AvatarsOperation = 'getAvatar' | 'getDefaultAvatar';

export const avatarsRoutes: RouteGroup<AvatarsOperation> = {
  getAvatar: route([], getAvatar),
  getDefaultAvatar: route([], getDefaultAvatar),
};
