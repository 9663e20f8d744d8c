// Quota records in Forgejo's shapes (services/convert/quota.go). An owner's own view leaves group and rule names
// out, as Forgejo does; administrators see them.
import type { components } from '../../generated/api.d.ts';
import type { UsedPackage } from '../db/package-usage.repository.ts';
import type { UsedArtifact, UsedAttachment } from '../db/quota-usage.repository.ts';
import type { QuotaGroup, QuotaInfo, QuotaRule } from '../domain/quota.ts';
import { repoApiUrl } from './repository.ts';

type Schemas = components['schemas'];

export function toQuotaRuleInfo(rule: QuotaRule, withName = true): Schemas['QuotaRuleInfo'] {
  return { ...(withName ? { name: rule.name } : {}), limit: rule.limit, subjects: [...rule.subjects] };
}

export function toQuotaGroup(group: QuotaGroup, withNames = true): Schemas['QuotaGroup'] {
  return {
    ...(withNames ? { name: group.name } : {}),
    rules: group.rules.map((rule) => toQuotaRuleInfo(rule, withNames)),
  };
}

export function toQuotaInfo(info: QuotaInfo, withNames: boolean): Schemas['QuotaInfo'] {
  const { used } = info;
  return {
    groups: info.groups.map((group) => toQuotaGroup(group, withNames)),
    used: {
      size: {
        repos: { public: used.reposPublic, private: used.reposPrivate },
        git: { LFS: used.lfs },
        assets: {
          attachments: { issues: used.attachmentsIssues, releases: used.attachmentsReleases },
          artifacts: used.artifacts,
          packages: { all: used.packages },
        },
      },
    },
  };
}

/** The attachment with the release, issue or comment that holds it (its `assets/{id}` is below that). */
export function toQuotaUsedAttachment(
  { attachment, repo, release, issue }: UsedAttachment,
  rootUrl: string,
): Schemas['QuotaUsedAttachment'] {
  const api = repoApiUrl(rootUrl, repo);
  const html = `${rootUrl}${repo.ownerName}/${repo.name}`;
  let container = { api_url: '', html_url: '' };
  if (release) {
    container = {
      api_url: `${api}/releases/${release.id}`,
      html_url: `${html}/releases/tag/${encodeURIComponent(release.tagName)}`,
    };
  } else if (issue) {
    const issueHtml = `${html}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
    container = attachment.commentId
      ? {
          api_url: `${api}/issues/comments/${attachment.commentId}`,
          html_url: `${issueHtml}#issuecomment-${attachment.commentId}`,
        }
      : { api_url: `${api}/issues/${issue.index}`, html_url: issueHtml };
  }
  return {
    name: attachment.name,
    size: Number(attachment.size),
    api_url: `${container.api_url}/assets/${attachment.id}`,
    contained_in: container,
  };
}

export function toQuotaUsedArtifact({ artifact, repo }: UsedArtifact, rootUrl: string): Schemas['QuotaUsedArtifact'] {
  return {
    name: artifact.name,
    size: Number(artifact.fileCompressedSize),
    html_url: `${rootUrl}${repo.ownerName}/${repo.name}/actions/runs/${artifact.runId}`,
  };
}

export function toQuotaUsedPackage(used: UsedPackage, rootUrl: string): Schemas['QuotaUsedPackage'] {
  return {
    name: used.name,
    type: used.type,
    version: used.version,
    size: used.size,
    html_url: `${rootUrl}${used.htmlPath}`,
  };
}
