import type { Caller } from '../auth/caller.ts';

declare global {
  namespace Express {
    interface Request {
      /** Set by the authentication middleware: who the request acts as, or null for anonymous. */
      caller?: Caller | null;
      /** The body's bytes as they came, kept for ActivityPub requests (src/app.ts). */
      rawBody?: Buffer;
      openapi?: { schema?: { operationId?: string }; pathParams?: Record<string, string> };
    }
  }
}
