// The largest body each operation may send, counted after any Content-Encoding is inflated. API bodies are small
// JSON; the exceptions carry a file inside the JSON. Stream bodies (git, package uploads) are bounded by their
// handlers instead.
import type { OperationId } from '../../generated/operations.ts';

const MiB = 1024 * 1024;

export const DEFAULT_BODY_LIMIT = 1 * MiB;

const BODY_LIMITS: Partial<Record<OperationId, number>> = {
  // A base64 image of at most AVATAR_MAX_FILE_SIZE (1 MiB) takes 1.34 MiB, line breaks included.
  orgUpdateAvatar: 2 * MiB,
};

export function bodyLimit(operationId: OperationId): number {
  return BODY_LIMITS[operationId] ?? DEFAULT_BODY_LIMIT;
}
