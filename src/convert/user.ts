import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import { avatarUrl } from './avatar.ts';
import { isoTime } from './time.ts';

export type ApiUser = components['schemas']['User'];

export const VISIBILITY_NAMES = ['public', 'limited', 'private'] as const;
export type VisibilityName = (typeof VISIBILITY_NAMES)[number];

export interface UserView {
  rootUrl: string;
  noReplyAddress: string;
  viewer: User | null;
}

/** Forgejo's user record; private fields only for the user themself and administrators. */
export function toUser(user: User, view: UserView): ApiUser {
  const { viewer } = view;
  const privileged = viewer !== null && (viewer.isAdmin || viewer.id === user.id);
  const showEmail = viewer !== null && (privileged || !user.keepEmailPrivate);
  return {
    id: user.id,
    login: user.name,
    // Forgejo and Gitea repeat the login here for older clients; the Gogs SDK reads nothing else.
    username: user.name,
    login_name: privileged ? user.loginName : '',
    source_id: privileged ? user.loginSourceId : 0,
    full_name: user.fullName,
    email: showEmail && user.email ? user.email : `${user.lowerName}@${view.noReplyAddress}`,
    avatar_url: avatarUrl(view.rootUrl, user),
    html_url: `${view.rootUrl}${user.name}`,
    language: privileged ? user.language : '',
    is_admin: privileged ? user.isAdmin : false,
    last_login: isoTime(privileged ? user.lastLoginAt : null),
    created: isoTime(user.createdAt),
    restricted: user.isRestricted,
    active: privileged ? user.isActive : false,
    prohibit_login: privileged ? user.prohibitLogin : false,
    location: user.location,
    pronouns: user.pronouns,
    website: user.website,
    description: user.description,
    visibility: VISIBILITY_NAMES[user.visibility] ?? 'public',
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
  };
}
