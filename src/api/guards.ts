// Guard factories, named after Forgejo's middleware chain (routers/api/v1/api.go).
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors.ts';
import type { Guard } from './route.ts';

/** Signed in by any method. */
export function reqToken(): Guard {
  return (ctx) => {
    if (!ctx.caller) throw new UnauthorizedError('token is required');
  };
}

export function reqSiteAdmin(): Guard {
  return (ctx) => {
    if (!ctx.caller) throw new UnauthorizedError('token is required');
    if (!ctx.caller.user.isAdmin) throw new ForbiddenError('You are not a site administrator.');
  };
}

/** Sections that can be switched off: their routes then do not exist. */
export function reqFeature(feature: 'quota' | 'federation'): Guard {
  return (ctx) => {
    if (!ctx.app.settings[feature].ENABLED) throw new NotFoundError();
  };
}
