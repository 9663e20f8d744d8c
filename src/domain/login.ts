// Login types of accounts and login sources (Forgejo: models/auth/source.go).
export const LoginType = { none: 0, plain: 1, ldap: 2, smtp: 3, pam: 4, dldap: 5, oauth2: 6, sspi: 7 } as const;

/** Accounts whose password Anvil itself checks, so the password rules apply. */
export function hasLocalPassword(loginType: number): boolean {
  return loginType === LoginType.none || loginType === LoginType.plain || loginType === LoginType.oauth2;
}
