// Errors in the form of the OCI distribution spec: {"errors":[{"code","message","detail"}]}, with its codes
// (distribution-spec: error codes) and the statuses Forgejo answers them with (routers/api/packages/container).
export class OciError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

export const blobUnknown = (digest?: string) => new OciError(404, 'BLOB_UNKNOWN', 'blob unknown to registry', digest);
export const uploadUnknown = () => new OciError(404, 'BLOB_UPLOAD_UNKNOWN', 'blob upload unknown to registry');
export const uploadInvalid = (message = 'blob upload invalid', status = 400) =>
  new OciError(status, 'BLOB_UPLOAD_INVALID', message);
export const digestInvalid = (message = 'provided digest did not match uploaded content') =>
  new OciError(400, 'DIGEST_INVALID', message);
export const manifestUnknown = (reference?: string) =>
  new OciError(404, 'MANIFEST_UNKNOWN', 'manifest unknown', reference);
export const manifestInvalid = (message: string, status = 400) => new OciError(status, 'MANIFEST_INVALID', message);
export const manifestBlobUnknown = (digest: string) =>
  new OciError(404, 'MANIFEST_BLOB_UNKNOWN', 'manifest references a blob unknown to the registry', digest);
export const nameInvalid = (name: string) => new OciError(400, 'NAME_INVALID', 'invalid repository name', name);
export const nameUnknown = (name?: string) =>
  new OciError(404, 'NAME_UNKNOWN', 'repository name not known to registry', name);
export const unsupported = (message = 'the operation is unsupported') => new OciError(405, 'UNSUPPORTED', message);
