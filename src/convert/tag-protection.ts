// Forgejo's TagProtection record (services/convert/convert.go ToTagProtection).
import type { components } from '../../generated/api.d.ts';
import type { ProtectedTagRow } from '../db/protected-tag.repository.ts';

export type ApiTagProtection = components['schemas']['TagProtection'];

export function toTagProtection(view: {
  row: ProtectedTagRow;
  userNames: string[];
  teamNames: string[];
}): ApiTagProtection {
  return {
    id: view.row.id,
    name_pattern: view.row.namePattern,
    whitelist_usernames: view.userNames,
    whitelist_teams: view.teamNames,
    created_at: view.row.createdAt.toISOString(),
    updated_at: view.row.updatedAt.toISOString(),
  };
}
