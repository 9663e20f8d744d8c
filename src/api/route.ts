// A route binds one operation of the contract to its guards and handler.
import type { Request, Response } from 'express';
import type {
  OperationId,
  PathParams,
  QueryParams,
  RequestBody,
  ResponseBody,
  ResponseStatus,
} from '../../generated/operations.ts';
import type { AppContext } from '../app/app-context.ts';
import type { Caller } from '../auth/caller.ts';
import type { Team, User } from '../db/entities.ts';
import { type ListOptions } from '../http/pagination.ts';
import type { OrgRole } from '../services/org.service.ts';
import type { RepoWithPermission } from '../services/repo-permission.service.ts';

/** The `{owner}/{repo}` of the path with the caller's permission on it. */
export type AssignedRepo = RepoWithPermission;

/** What the route's assignment guards resolved from the path (src/api/assignment.ts). */
export interface Assigned {
  user?: User;
  org?: User;
  team?: Team;
  repo?: AssignedRepo;
}

export interface RequestContext<Op extends OperationId = OperationId> {
  readonly operationId: Op;
  readonly params: PathParams<Op>;
  readonly query: QueryParams<Op>;
  readonly body: RequestBody<Op>;
  readonly caller: Caller | null;
  readonly app: AppContext;
  readonly req: Request;
  readonly res: Response;
  readonly assigned: Assigned;
  /** The signed-in user; throws 401 for anonymous callers. */
  doer(): User;
  /** The `{username}` user of the path, as userAssignment() resolved it. */
  user(): User;
  /** The organization of the path (`{org}`, or the team's), as orgAssignment()/teamAssignment() resolved it. */
  org(): User;
  /** The `{id}` team of the path, as teamAssignment() resolved it. */
  team(): Team;
  /** The `{owner}/{repo}` repository of the path and the caller's permission, as repoAssignment() resolved it. */
  repo(): AssignedRepo;
  /** The caller's membership and ownership of org(); computed once per request. */
  orgRole(): Promise<OrgRole>;
  /** page/limit of a list operation, clamped to the configured maximum. */
  listOptions(defaultLimit?: number): ListOptions;
  /** The request URL as the public root URL names it (for Link headers). */
  publicUrl(): URL;
  send<S extends ResponseStatus<Op>>(
    status: S,
    ...body: ResponseBody<Op, S> extends undefined ? [] : [ResponseBody<Op, S>]
  ): void;
  /** Sends one page of a list with X-Total-Count and Link. */
  sendPage<S extends ResponseStatus<Op>>(
    status: S,
    body: ResponseBody<Op, S>,
    options: ListOptions,
    total: number,
  ): void;
}

/** A context of whichever operation: what guards and shared helpers take (its input types differ per operation). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRequestContext = RequestContext<any>;
export type Guard = (ctx: AnyRequestContext) => void | Promise<void>;
export type Handler<Op extends OperationId> = (ctx: RequestContext<Op>) => void | Promise<void>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a route of whichever operation
export interface Route<Op extends OperationId = any> {
  readonly guards: readonly Guard[];
  readonly handler: Handler<Op>;
  readonly implemented: boolean;
}

export function route<Op extends OperationId>(guards: readonly Guard[], handler: Handler<Op>): Route<Op> {
  return { guards, handler, implemented: true };
}

/** An operation of the contract that Anvil does not serve yet: 501, and counted by `npm run coverage:api`. */
export function notImplemented(): Route {
  return {
    guards: [],
    implemented: false,
    handler(ctx) {
      ctx.res.status(501).json({
        message: `${ctx.operationId} is not implemented yet`,
        url: `${ctx.app.settings.server.ROOT_URL}api/swagger`,
      });
    },
  };
}

/** Routes of one group of operations; the registry joins the groups and checks that none is missing. */
export type RouteGroup<Ops extends OperationId> = { readonly [Op in Ops]: Route<Op> };
