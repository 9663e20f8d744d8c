// GET /v2/_catalog (Forgejo: GetRepositoryList): the images of owners the caller may see, `n` at a time (at most
// 100, Forgejo's page) after `last`, with a Link to the next page when there is one.
import { catalogViewer } from './registry-auth.ts';
import type { RegistryApp } from './registry-request.ts';
import type { RegistryCaller } from './registry-auth.ts';
import type { Request, Response } from 'express';

const PAGE = 100;

export async function listCatalog(app: RegistryApp, who: RegistryCaller, req: Request, res: Response): Promise<void> {
  const viewer = catalogViewer(app.context, who, req.method);
  const { n, last } = req.query;
  const asked = typeof n === 'string' && /^\d+$/.test(n) ? Number(n) : 0;
  const limit = asked > 0 && asked <= PAGE ? asked : PAGE;
  const after = typeof last === 'string' ? last.trim() : '';
  const { names, more } = await app.containerManifests.catalog(viewer, limit, after);
  if (more) {
    const next = new URLSearchParams({ n: String(limit), last: names[names.length - 1] });
    res.setHeader('Link', `</v2/_catalog?${next.toString()}>; rel="next"`);
  }
  res.status(200).json({ repositories: names });
}
