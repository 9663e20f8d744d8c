// What a public-only token reaches (Forgejo: checkTokenPublicOnly): public users, organizations and repositories.
// Guards refuse it on one resource (403 past the visibility check); lists keep only what it reaches.
import { Visibility } from './modes.ts';

export function tokenReachesOwner(publicOnly: boolean, owner: { readonly visibility: number }): boolean {
  return !publicOnly || owner.visibility === Visibility.public;
}

export function tokenReachesRepo(publicOnly: boolean, repo: { readonly isPrivate: boolean }): boolean {
  return !publicOnly || !repo.isPrivate;
}

/** The owner visibilities a list may show to the token: public ones only, or null for no limit. */
export function reachableOwnerVisibilities(publicOnly: boolean): number[] | null {
  return publicOnly ? [Visibility.public] : null;
}
