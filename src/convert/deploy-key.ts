// Forgejo's DeployKey record (services/convert/convert.go ToDeployKey); `repository` is added by the caller where
// Forgejo shows it (to site admins and the repository's owner).
import type { components } from '../../generated/api.d.ts';
import type { DeployKeyRow } from '../db/deploy-key.repository.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { repoApiUrl } from './repository.ts';
import { isoTime } from './time.ts';

export type ApiDeployKey = components['schemas']['DeployKey'];

export function toDeployKey(
  grant: DeployKeyRow,
  rootUrl: string,
  repo: { ownerName: string; name: string },
): ApiDeployKey {
  return {
    id: grant.id,
    key_id: grant.keyId,
    key: grant.key.content,
    fingerprint: grant.fingerprint,
    url: `${repoApiUrl(rootUrl, repo)}/keys/${grant.id}`,
    title: grant.name,
    created_at: isoTime(grant.createdAt),
    read_only: grant.mode === AccessMode.read,
  };
}
