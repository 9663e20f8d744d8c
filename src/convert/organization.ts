// A minimal organization record (Forgejo: services/convert/convert.go ToOrganization).
import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import { avatarUrl } from './avatar.ts';
import { VISIBILITY_NAMES } from './user.ts';

export type ApiOrganization = components['schemas']['Organization'];

export function toOrganization(org: User, rootUrl: string): ApiOrganization {
  return {
    id: org.id,
    name: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: avatarUrl(rootUrl, org),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: VISIBILITY_NAMES[org.visibility] ?? 'public',
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    username: org.name,
  };
}
