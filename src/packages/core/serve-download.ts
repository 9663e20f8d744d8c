// Sends a package file found by the download query (its size and SHA-256 from the blob row): ETag from its bytes,
// conditional requests and ranges as every stored download.
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import { serveBlob } from '../../http/serve-blob.ts';
import type { RegistryContext } from './registry-context.ts';

export function servePackageDownload(
  ctx: RegistryContext,
  file: PackageFileDownload,
  contentType = 'application/octet-stream',
): Promise<void> {
  return serveBlob(ctx.req, ctx.res, {
    size: file.size,
    sha256: file.sha256,
    lastModified: file.createdAt,
    fileName: file.name,
    contentType,
    store: ctx.app.services.packages.blobs,
    key: file.sha256,
  });
}
