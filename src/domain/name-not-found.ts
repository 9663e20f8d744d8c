// The 404 of a lookup by name, worded as Forgejo words it; a name the caller may not see gets the same answer.
import { NotFoundError } from './errors.ts';

export function userNotFound(name: string): NotFoundError {
  return new NotFoundError(`user does not exist [name: ${name}]`);
}

export function orgNotFound(name: string): NotFoundError {
  return new NotFoundError('GetOrgByName', [`org does not exist [name: ${name}]`]);
}

export function repoNotFound(name: string): NotFoundError {
  return new NotFoundError('GetRepositoryByName', [`repository does not exist [name: ${name}]`]);
}
