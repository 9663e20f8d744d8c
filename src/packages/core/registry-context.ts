// One registry request as its guards and handler see it: the caller, the owner the path names (once the owner
// guard resolved it), the route's decoded parameters, and the registry's public address.
import type { Request, Response } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Caller } from '../../auth/caller.ts';
import type { User } from '../../db/entities.ts';
import { InternalError, UnauthorizedError } from '../../domain/errors.ts';

export class RegistryContext {
  assignedOwner: User | undefined;

  constructor(
    readonly app: AppContext,
    readonly req: Request,
    readonly res: Response,
    readonly caller: Caller | null,
    /** The `{owner}` of the path, as spelled. */
    readonly ownerName: string,
    /** The registry type of the path (`npm`, `pypi`, `maven`…). */
    readonly type: string,
    /** The named groups of the route's pattern, percent-decoded. */
    readonly params: Readonly<Record<string, string>>,
  ) {}

  /** The signed-in user; 401 for anonymous callers. */
  doer(): User {
    if (!this.caller) throw new UnauthorizedError('authentication required');
    return this.caller.user;
  }

  /** The owner of the path, as ownerAssignment() resolved it. */
  owner(): User {
    if (!this.assignedOwner) throw new InternalError('the registry route resolves no owner');
    return this.assignedOwner;
  }

  /** The registry's root as clients reach it: `<ROOT_URL>api/packages/<owner>/<type>`, without a trailing slash. */
  registryUrl(): string {
    const owner = encodeURIComponent(this.assignedOwner?.name ?? this.ownerName);
    return `${this.app.settings.server.ROOT_URL}api/packages/${owner}/${this.type}`;
  }

  /** The upload's Content-Length, when the client sent one. */
  announcedLength(): number | undefined {
    const length = this.req.headers['content-length'];
    return length === undefined ? undefined : Number(length);
  }

  param(name: string): string {
    const value = this.params[name];
    if (value === undefined) throw new InternalError(`the registry route has no parameter ${name}`);
    return value;
  }
}
