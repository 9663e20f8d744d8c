// The container registry's routes under /v2 (Forgejo: routers/api/packages/api.go ContainerRoutes): the API
// version check, the token end point, and the OCI distribution end points of an image `{owner}/{image…}` (the
// image may be nested, so the path is matched from its end). Every answer carries the registry's API version
// header; every failure is answered in the spec's error form.
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Authenticator } from '../../auth/authenticate.ts';
import { loadAtRestKey } from '../../crypto/at-rest-key.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import {
  cancelUpload,
  deleteBlob,
  finishUpload,
  getBlob,
  patchUpload,
  startUpload,
  uploadStatus,
} from './blob-handlers.ts';
import { listCatalog } from './catalog-handler.ts';
import { deleteManifest, getManifest, listReferrers, listTags, putManifest } from './manifest-handlers.ts';
import { unsupported } from './oci-error.ts';
import { sendOciError } from './oci-error-response.ts';
import { identify, type RegistryCaller, requireCredential } from './registry-auth.ts';
import { type RegistryApp, RegistryRequest } from './registry-request.ts';
import { GHOST_USER_ID, RegistryTokens, scopeText } from '../core/registry-token.ts';

type Handler = (ctx: RegistryRequest, argument: string) => Promise<void>;

/** The end points below an image's name: the path's tail, and a handler per method. */
const IMAGE_ROUTES: readonly { tail: RegExp; methods: Record<string, Handler> }[] = [
  { tail: /^\/blobs\/uploads\/?$/, methods: { POST: startUpload } },
  {
    tail: /^\/blobs\/uploads\/([^/]+)$/,
    methods: { GET: uploadStatus, PATCH: patchUpload, PUT: finishUpload, DELETE: cancelUpload },
  },
  { tail: /^\/blobs\/([^/]+)$/, methods: { GET: getBlob, HEAD: getBlob, DELETE: deleteBlob } },
  {
    tail: /^\/manifests\/([^/]+)$/,
    methods: { GET: getManifest, HEAD: getManifest, PUT: putManifest, DELETE: deleteManifest },
  },
  { tail: /^\/tags\/list$/, methods: { GET: listTags } },
  { tail: /^\/referrers\/([^/]+)$/, methods: { GET: listReferrers } },
];

const TAILS = [
  String.raw`/blobs/uploads/?`,
  String.raw`/blobs/uploads/[^/]+`,
  String.raw`/blobs/[^/]+`,
  String.raw`/manifests/[^/]+`,
  String.raw`/tags/list`,
  String.raw`/referrers/[^/]+`,
];
const ENDPOINT = new RegExp(`^/(.+?)(${TAILS.join('|')})$`);

/** GET /v2/token: a token for the caller, or for the ghost user when anonymous and the site allows it. */
function issueToken(app: RegistryApp, who: RegistryCaller, res: Response): void {
  const { caller } = who;
  if (!caller && app.context.settings.service.REQUIRE_SIGNIN_VIEW) throw new UnauthorizedError('sign in required');
  if (caller?.scope && !caller.scope.all && !caller.scope.read.has('package')) {
    throw new UnauthorizedError('the token has no package scope');
  }
  const token = app.tokens.issue({ userId: caller?.user.id ?? GHOST_USER_ID, scope: scopeText(caller?.scope ?? null) });
  res.status(200).json({ token });
}

async function route(app: RegistryApp, authenticate: Authenticator, req: Request, res: Response): Promise<void> {
  const who = await identify(app.context, app.tokens, authenticate, req, res);
  const path = req.path;
  if (path === '/' || path === '') {
    if (req.method !== 'GET' && req.method !== 'HEAD') throw unsupported();
    requireCredential(app.context, who);
    res.status(200).json({});
    return;
  }
  if (path === '/token') {
    if (req.method !== 'GET') throw unsupported();
    return issueToken(app, who, res);
  }
  if (path === '/_catalog') {
    if (req.method !== 'GET') throw unsupported();
    return listCatalog(app, who, req, res);
  }
  const match = ENDPOINT.exec(path);
  if (!match) throw unsupported('no such end point');
  const [, name, tail] = match;
  for (const candidate of IMAGE_ROUTES) {
    const found = candidate.tail.exec(tail);
    if (!found) continue;
    const handler = candidate.methods[req.method];
    if (!handler) throw unsupported(`${req.method} is not supported here`);
    return handler(new RegistryRequest(app, req, res, who, name), decodeURIComponent(found[1] ?? ''));
  }
  throw unsupported('no such end point');
}

/**
 * The /v2 handler; `authenticate` is the API's own credential check (basic, tokens), for callers without a
 * registry token.
 */
export function containerRegistry(context: AppContext, authenticate: Authenticator): RequestHandler {
  const { key } = loadAtRestKey(context.settings.security.SECRET_KEY, context.settings.server.APP_DATA_PATH);
  const app: RegistryApp = {
    context,
    tokens: new RegistryTokens(key),
    containerBlobs: context.services.containerBlobs,
    containerManifests: context.services.containerManifests,
  };
  const rootUrl = context.settings.server.ROOT_URL;
  return (req, res) => {
    res.setHeader('Docker-Distribution-Api-Version', 'registry/2.0');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    route(app, authenticate, req, res).catch((error: unknown) => {
      sendOciError(res, error, rootUrl, context.log);
    });
  };
}
