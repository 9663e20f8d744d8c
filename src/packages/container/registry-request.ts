// One registry request as its handlers see it: the app's registry services, the caller, the repository name of
// the path, and the image it names once resolved for the access the handler needs.
import type { Request, Response } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { User } from '../../db/entities.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import type { ContainerBlobService, ImageTarget } from './blob.service.ts';
import type { ContainerManifestService } from './manifest.service.ts';
import { type RegistryCaller, resolveImage } from './registry-auth.ts';
import type { RegistryTokens } from '../core/registry-token.ts';

export interface RegistryApp {
  context: AppContext;
  containerBlobs: ContainerBlobService;
  containerManifests: ContainerManifestService;
  tokens: RegistryTokens;
}

export class RegistryRequest {
  constructor(
    readonly app: RegistryApp,
    readonly req: Request,
    readonly res: Response,
    readonly who: RegistryCaller,
    /** `{owner}/{image}` as the path spells it. */
    readonly name: string,
  ) {}

  /** The image, for a caller with `needed` on its owner's packages (errors otherwise, see registry-auth.ts). */
  image(needed: 'read' | 'write'): Promise<ImageTarget> {
    return resolveImage(this.app.context, this.who, this.name, needed, this.req.method);
  }

  doer(): User {
    const user = this.who.caller?.user;
    if (!user) throw new UnauthorizedError('authentication required');
    return user;
  }
}
