import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import { avatarUrl } from './avatar.ts';
import { VISIBILITY_NAMES, type UserView } from './user.ts';

export type ApiOrganization = components['schemas']['Organization'];

/** Forgejo's organization record; anonymous callers do not see the e-mail address. */
export function toOrganization(org: User, view: UserView): ApiOrganization {
  return {
    id: org.id,
    name: org.name,
    username: org.name,
    full_name: org.fullName,
    email: view.viewer ? org.email : '',
    avatar_url: avatarUrl(view.rootUrl, org),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: VISIBILITY_NAMES[org.visibility] ?? 'public',
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
  };
}
