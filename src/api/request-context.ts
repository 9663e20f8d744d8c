// The RequestContext a route's guards and handler receive. A class, not an object of closures: every request
// makes one, and its methods live once on the prototype.
import type { Request, Response } from 'express';
import type { OperationId } from '../../generated/operations.ts';
import type { AppContext } from '../app/app-context.ts';
import type { Caller } from '../auth/caller.ts';
import type { Team, User } from '../db/entities.ts';
import { InternalError, UnauthorizedError } from '../domain/errors.ts';
import { listOptions, setPaginationHeaders, type ListOptions } from '../http/pagination.ts';
import { sendResetContent } from '../http/reset-content.ts';
import type { OrgRole } from '../services/org.service.ts';
import type { AnyRequestContext, Assigned, AssignedRepo } from './route.ts';

export class OperationContext implements AnyRequestContext {
  readonly assigned: Assigned = {};
  // Typed per operation by RequestContext<Op>; here they are what the validator let through.
  readonly params: never;
  readonly query: never;
  readonly body: never;
  private role: Promise<OrgRole> | undefined;

  constructor(
    readonly operationId: OperationId,
    params: Record<string, string | number>,
    readonly caller: Caller | null,
    readonly app: AppContext,
    readonly req: Request,
    readonly res: Response,
  ) {
    this.params = params as never;
    this.query = req.query as never;
    this.body = req.body as never;
  }

  doer(): User {
    if (!this.caller) throw new UnauthorizedError('token is required');
    return this.caller.user;
  }

  user(): User {
    return this.assigned.user ?? this.unresolved('user');
  }

  org(): User {
    return this.assigned.org ?? this.unresolved('organization');
  }

  team(): Team {
    return this.assigned.team ?? this.unresolved('team');
  }

  repo(): AssignedRepo {
    return this.assigned.repo ?? this.unresolved('repository');
  }

  orgRole(): Promise<OrgRole> {
    if (!this.caller) return Promise.resolve({ member: false, owner: false });
    this.role ??= this.app.services.orgs.roleOf(this.org().id, this.caller.user.id);
    return this.role;
  }

  listOptions(defaultLimit?: number): ListOptions {
    return listOptions(this.req.query as { page?: number; limit?: number }, this.app.settings.api, defaultLimit);
  }

  publicUrl(): URL {
    return new URL(this.req.originalUrl.replace(/^\/+/, ''), this.app.settings.server.ROOT_URL);
  }

  send(status: number, body?: unknown): void {
    this.res.status(status);
    if (body === undefined) this.res.end();
    else if (status === 205) sendResetContent(this.res, body);
    else this.res.json(body);
  }

  sendPage(status: number, body: unknown, options: ListOptions, total: number): void {
    setPaginationHeaders(this.res, this.publicUrl(), options, total);
    this.res.status(status).json(body);
  }

  private unresolved(what: string): never {
    throw new InternalError(`${this.operationId}: the route resolves no ${what}`);
  }
}
