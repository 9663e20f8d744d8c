import type { components } from '../../generated/api.d.ts';
import type { ActionSecret } from '../db/action-secret.repository.ts';
import type { ActionVariable } from '../db/action-variable.repository.ts';
import { isoTime } from './time.ts';

/** A secret as listed: its name and when it was made, never its value (Forgejo: routers/api/v1/org/action.go). */
export function toSecret(secret: ActionSecret): components['schemas']['Secret'] {
  return { name: secret.name, created_at: isoTime(secret.createdAt) };
}

export function toActionVariable(variable: ActionVariable): components['schemas']['ActionVariable'] {
  return { owner_id: variable.ownerId, repo_id: variable.repoId, name: variable.name, data: variable.data };
}
