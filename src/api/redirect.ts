// The URL of the same request with some path parameters replaced: how a renamed user, organization or
// repository keeps answering under its old name (Forgejo: services/context/context_response.go RedirectToUser,
// services/context/repo.go RedirectToRepo), query kept.
import type { Request } from 'express';

export function urlWithParams(req: Request, template: string, replacements: Record<string, string>): string | null {
  const queryStart = req.url.indexOf('?');
  const query = queryStart >= 0 ? req.url.slice(queryStart) : '';
  const segments = (queryStart >= 0 ? req.url.slice(0, queryStart) : req.url).split('/');
  const names = template.split('/');
  // The served path has the template's shape (normalised before routing), so segments line up.
  if (names.length !== segments.length) return null;
  for (const [name, value] of Object.entries(replacements)) {
    const index = names.indexOf(`{${name}}`);
    if (index < 0) return null;
    segments[index] = encodeURIComponent(value);
  }
  return `${segments.join('/')}${query}`;
}
