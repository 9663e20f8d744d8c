// A signal that fires when the client of a request goes away before its answer was sent, so work done only for
// that answer (an outgoing fetch) can be abandoned.
import type { Response } from 'express';

export function clientGoneSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}
