// A fixed list of middleware that every request runs, as one express layer. Express's router matches each layer's
// path and wraps its call on every request, which for a dozen layers mounted at '/' is work without a purpose.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Runs `steps` in order as express would: an error (thrown, rejected or passed to next) skips to `done`. */
export function middlewareChain(steps: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error) return done(error);
      const step = steps[index++];
      if (!step) return done();
      try {
        const result: unknown = step(req, res, next);
        if (result instanceof Promise)
          result.then(undefined, (rejection) => done(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
