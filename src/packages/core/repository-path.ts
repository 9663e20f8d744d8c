// The path that names a repository inside a registry (an RPM group, an Arch repository): "" for the registry's own
// repository, else segments of letters, digits and `._-`, none starting with a dot, at most 8 deep. Anything else
// names no repository (404).
import { NotFoundError } from '../../domain/errors.ts';

const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}';
const PATH = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,7}$`);

export function checkRepositoryPath(path: string): string {
  if (path !== '' && !PATH.test(path)) throw new NotFoundError('no such repository');
  return path;
}
