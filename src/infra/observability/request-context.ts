// The request a piece of work runs for, carried through its async calls, so every log line written while
// serving it names its request id whichever logger wrote it.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  readonly requestId: string;
}

export const requestContext = new AsyncLocalStorage<RequestContext>();
