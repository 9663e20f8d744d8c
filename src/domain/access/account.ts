// What a signed-in account may do about itself and other accounts (Forgejo: models/user CanCreateOrganization,
// routers/api/v1 reqSelfOrAdmin and the notification thread check).

export interface Account {
  readonly id: number;
  readonly isAdmin: boolean;
}

/** The user themself or a site administrator. */
export function isSelfOrAdmin(account: Account, userId: number): boolean {
  return account.isAdmin || account.id === userId;
}

/** Site admins always; others when allowed and the site has not switched regular creation off. */
export function canCreateOrganization(
  user: Account & { readonly allowCreateOrganization: boolean },
  regularCreationDisabled: boolean,
): boolean {
  return user.isAdmin || (user.allowCreateOrganization && !regularCreationDisabled);
}
