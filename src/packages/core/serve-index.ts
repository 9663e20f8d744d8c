// Sends a file of a repository's stored index set (src/packages/core/repository-index.ts): ETag from its bytes,
// conditional requests and ranges as every stored download; 404 when the set has no such file.
import { serveBlob } from '../../http/serve-blob.ts';
import type { IndexScopeKey, StoredIndexFile } from '../../db/repository-index.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { RegistryContext } from './registry-context.ts';

export async function serveIndexFile(
  ctx: RegistryContext,
  file: StoredIndexFile | null,
  contentType: string,
): Promise<void> {
  if (!file) throw new NotFoundError('no such index file');
  const { hashSha256 } = file.blob;
  await serveBlob(ctx.req, ctx.res, {
    size: Number(file.blob.size),
    sha256: hashSha256,
    lastModified: file.createdAt,
    fileName: file.name.slice(file.name.lastIndexOf('/') + 1),
    contentType,
    store: ctx.app.services.packages.blobs,
    key: hashSha256,
  });
}

/** The index scope of a registry request: the path's owner, the registry's type and the given scope. */
export function indexScope(ctx: RegistryContext, scope: string): IndexScopeKey {
  return { ownerId: ctx.owner().id, type: ctx.type, scope };
}
