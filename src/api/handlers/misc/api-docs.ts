// GET /api/swagger: Swagger UI (swagger-ui-dist, served from this process, no CDN) over /swagger.v1.json.
// [api] ENABLE_SWAGGER=false turns the page off.
import fs from 'node:fs';
import path from 'node:path';
import { NotFoundError } from '../../../domain/errors.ts';
import type { Handler, RequestContext } from '../../route.ts';
import { projectPath } from '../../../lib/project-root.ts';

const pageDir = projectPath('assets', 'api-docs');
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The files the page loads, and where each one lives. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': path.join(swaggerUiDir, 'swagger-ui.css'),
  'swagger-ui-bundle.js': path.join(swaggerUiDir, 'swagger-ui-bundle.js'),
  'favicon-32x32.png': path.join(swaggerUiDir, 'favicon-32x32.png'),
  'anvil-init.js': path.join(pageDir, 'anvil-init.js'),
};

// The page runs only its own scripts; Swagger UI sets inline styles and shows data: images.
const CONTENT_SECURITY_POLICY = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

let page: string | undefined;

function requireEnabled(ctx: RequestContext): void {
  if (!ctx.app.settings.api.ENABLE_SWAGGER) throw new NotFoundError();
}

export const getApiDocs: Handler<'getApiDocs'> = (ctx) => {
  requireEnabled(ctx);
  page ??= fs.readFileSync(path.join(pageDir, 'index.html'), 'utf8');
  ctx.res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  ctx.res.status(200).type('text/html').send(page);
};

export const getApiDocsAsset: Handler<'getApiDocsAsset'> = async (ctx) => {
  requireEnabled(ctx);
  const file = Object.hasOwn(ASSETS, ctx.params.asset) ? ASSETS[ctx.params.asset] : undefined;
  if (!file) throw new NotFoundError();
  // The files change only with an upgrade of Anvil.
  ctx.res.setHeader('Cache-Control', 'public, max-age=3600');
  await new Promise<void>((resolve, reject) => {
    ctx.res.sendFile(file, (error) => (error ? reject(error) : resolve()));
  });
};
