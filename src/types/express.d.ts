import type { Caller } from '../auth/caller.ts';
import type { OperationId } from '../../generated/operations.ts';

declare global {
  namespace Express {
    interface Request {
      /** Set by the authentication middleware: who the request acts as, or null for anonymous. */
      caller?: Caller | null;
      /** The body's bytes as they came, kept for ActivityPub requests (src/app.ts). */
      rawBody?: Buffer;
      /** The contract operation the path and method name (src/api/operation-lookup.ts); path parameters decoded, and
       * coerced to their types once the request is validated. */
      operation?: { id: OperationId; pathParams: Record<string, string | number> };
    }
  }
}
