// Releases and their attachments as Forgejo shows them (services/convert/release.go ToAPIRelease, attachment.go).
import type { components } from '../../generated/api.d.ts';
import type { User } from '../db/entities.ts';
import type { AttachmentRow, ReleaseRow } from '../db/release.repository.ts';
import { apiBase, type RepoLinks } from './commit.ts';
import { toUser, type UserView } from './user.ts';

export type ApiRelease = components['schemas']['Release'];
export type ApiAttachment = components['schemas']['Attachment'];

const escapePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

export function toAttachment(attachment: AttachmentRow, tagName: string, links: RepoLinks): ApiAttachment {
  return {
    id: attachment.id,
    name: attachment.name,
    size: Number(attachment.size),
    download_count: attachment.downloadCount,
    created_at: attachment.createdAt.toISOString(),
    uuid: attachment.uuid,
    browser_download_url: `${links.rootUrl}${links.ownerName}/${links.name}/releases/download/${escapePath(tagName)}/${encodeURIComponent(attachment.name)}`,
    type: 'attachment',
  };
}

export function toRelease(
  view: { release: ReleaseRow; publisher: User | null; attachments: AttachmentRow[] },
  links: RepoLinks,
  userView: UserView,
): ApiRelease {
  const { release } = view;
  const html = `${links.rootUrl}${links.ownerName}/${links.name}`;
  const api = apiBase(links);
  const result: ApiRelease = {
    id: release.id,
    tag_name: release.tagName,
    target_commitish: release.target,
    name: release.title,
    body: release.note,
    url: `${api}/releases/${release.id}`,
    html_url: `${html}/releases/tag/${escapePath(release.tagName)}`,
    tarball_url: release.hideArchiveLinks ? '' : `${html}/archive/${escapePath(release.tagName)}.tar.gz`,
    zipball_url: release.hideArchiveLinks ? '' : `${html}/archive/${escapePath(release.tagName)}.zip`,
    hide_archive_links: release.hideArchiveLinks,
    upload_url: `${api}/releases/${release.id}/assets`,
    draft: release.isDraft,
    prerelease: release.isPrerelease,
    created_at: release.createdAt.toISOString(),
    published_at: release.createdAt.toISOString(),
    assets: view.attachments.map((attachment) => toAttachment(attachment, release.tagName, links)),
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
  if (view.publisher) result.author = toUser(view.publisher, userView);
  return result;
}
