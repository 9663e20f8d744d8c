import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/prisma.ts';
import type { Label } from '../db/label.repository.ts';

export type ApiLabel = components['schemas']['Label'];

/** Colours are shown without their `#`. */
export function toOrgLabel(label: Label, org: Pick<User, 'name'>, rootUrl: string): ApiLabel {
  return {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#+/, ''),
    description: label.description,
    url: `${rootUrl}api/v1/orgs/${encodeURIComponent(org.name)}/labels/${label.id}`,
  };
}
