// A renamed user or organization keeps answering under its old name: when a path parameter naming an owner
// names nobody but a redirect record exists, the answer is 307 to the same URL with the new name, query kept
// (Forgejo: services/context/context_response.go RedirectToUser).
import type { Request } from 'express';
import type { OperationInfo } from '../../generated/operations.ts';
import type { AppContext } from '../app-context.ts';

const OWNER_PARAMETERS = ['username', 'org', 'owner'] as const;

/** The URL to redirect to, or null when every owner named in the path exists (or was never renamed). */
export async function ownerRedirectUrl(app: AppContext, operation: OperationInfo, req: Request): Promise<string | null> {
  const params = (req.openapi?.pathParams ?? {}) as Record<string, string>;
  const template = operation.path.split('/');
  const queryStart = req.url.indexOf('?');
  const query = queryStart >= 0 ? req.url.slice(queryStart) : '';
  const segments = (queryStart >= 0 ? req.url.slice(0, queryStart) : req.url).split('/');
  let redirected = false;
  for (const name of OWNER_PARAMETERS) {
    const value = params[name];
    if (typeof value !== 'string' || value === '') continue;
    if (await app.db.hot.userByLowerName(value.toLowerCase())) continue;
    const newName = await app.services.users.renamedTo(value);
    if (!newName) continue;
    // The served path has the template's shape (normalised before routing), so segments line up.
    const index = template.indexOf(`{${name}}`);
    if (index < 0 || template.length !== segments.length) return null;
    segments[index] = encodeURIComponent(newName);
    redirected = true;
  }
  return redirected ? `${segments.join('/')}${query}` : null;
}
