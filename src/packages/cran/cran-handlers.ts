// The CRAN registry's handlers: uploads of source and binary packages, the PACKAGES index of each tree (plain or
// gzipped, cached by ETag), and package downloads. Each reads the request, makes one service call and answers.
import { matchesEntityTag } from '../../http/byte-range.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { binaryTreeOf, type CranTree } from './cran.service.ts';

const SOURCE: CranTree = { kind: 'source' };

function announcedLength(ctx: RegistryContext): number | undefined {
  const header = ctx.req.headers['content-length'];
  return header !== undefined && Number.isFinite(Number(header)) ? Number(header) : undefined;
}

const query = (ctx: RegistryContext, name: string) => String(ctx.req.query[name] ?? '').trim();

async function upload(ctx: RegistryContext, tree: CranTree): Promise<void> {
  const { name, version } = await ctx.app.services.cran.upload(
    ctx.doer(),
    ctx.owner(),
    tree,
    ctx.req,
    announcedLength(ctx),
  );
  ctx.res.status(201).type('text/plain').send(`${name} ${version}\n`);
}

/** PUT src: a source package (.tar.gz). */
export function uploadSource(ctx: RegistryContext): Promise<void> {
  return upload(ctx, SOURCE);
}

/** PUT bin?platform=…&rversion=…: a binary build (.zip or .tar.gz). */
export function uploadBinary(ctx: RegistryContext): Promise<void> {
  return upload(ctx, binaryTreeOf(query(ctx, 'platform'), query(ctx, 'rversion')));
}

function treeOf(ctx: RegistryContext): CranTree {
  const { platform } = ctx.params;
  return platform === undefined ? SOURCE : binaryTreeOf(platform, ctx.param('rversion'));
}

/** …/contrib/PACKAGES and PACKAGES.gz */
export async function packagesIndex(ctx: RegistryContext): Promise<void> {
  const document = await ctx.app.services.cran.packages(ctx.owner(), treeOf(ctx));
  const { res } = ctx;
  const gzipped = ctx.params.format === '.gz';
  const etag = gzipped ? document.etag.replace(/"$/, '-gz"') : document.etag;
  res.setHeader('ETag', etag);
  if (matchesEntityTag(ctx.req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  if (gzipped) res.status(200).type('application/x-gzip').send(document.gzipped);
  else res.status(200).type('text/plain; charset=utf-8').send(document.text);
}

/** …/contrib/NAME_VERSION.tar.gz (and src/contrib/Archive/NAME/…, where R looks for older versions). */
export async function downloadPackage(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.cran.file(ctx.owner(), treeOf(ctx), ctx.param('filename'));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
