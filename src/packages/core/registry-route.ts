// The route table of a package registry under /api/packages/{owner}/{type}/…: each route is a method, a pattern
// over the path below the type, the guards that state who may call it (src/packages/core/registry-guards.ts, in
// the API's vocabulary) and a handler. Registries whose clients name packages with slashes (npm scopes, Maven
// groups) match the rest of the path with a regular expression; its named groups are the route's parameters.
import type { Request } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Caller } from '../../auth/caller.ts';
import type { RegistryContext } from './registry-context.ts';
import type { ErrorFormat } from './registry-errors.ts';

export type RegistryMethod = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
export type RegistryGuard = (ctx: RegistryContext) => void | Promise<void>;
export type RegistryHandler = (ctx: RegistryContext) => Promise<void>;
/** A credential of the registry's own (Chef's signed requests): the caller it proves, or null when none is sent. */
export type RegistryAuthenticator = (app: AppContext, req: Request) => Promise<Caller | null>;

export interface RegistryRoute {
  readonly method: RegistryMethod;
  /** Matched against the path below `/api/packages/{owner}/{type}`, still percent-encoded. */
  readonly pattern: RegExp;
  readonly guards: readonly RegistryGuard[];
  readonly handler: RegistryHandler;
}

/** One registry: its routes, tried in order, and the form its client reads failures in. */
export interface RegistryTable {
  readonly errors: ErrorFormat;
  readonly routes: readonly RegistryRoute[];
  /** A header the client sends its token in instead of Authorization (NuGet's `X-NuGet-ApiKey`). */
  readonly apiKeyHeader?: string;
  /** Tried before the API's credentials; when it finds its own, they decide. */
  readonly authenticate?: RegistryAuthenticator;
}

export function registryRoute(
  method: RegistryMethod,
  pattern: RegExp,
  guards: readonly RegistryGuard[],
  handler: RegistryHandler,
): RegistryRoute {
  return { method, pattern, guards, handler };
}
