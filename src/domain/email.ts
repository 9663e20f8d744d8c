// E-mail address checks (Forgejo: modules/validation/email.go).

const EMAIL_PATTERN =
  /^[\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function isValidEmail(email: string): boolean {
  return email.length <= 254 && !email.startsWith('-') && EMAIL_PATTERN.test(email);
}

/** Whether the domain passes the allow list (when one is set) and is not on the block list. */
export function emailDomainAllowed(email: string, allowlist: readonly string[], blocklist: readonly string[]): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const matches = (pattern: string) =>
    pattern.startsWith('*.') ? domain.endsWith(pattern.slice(1)) : domain === pattern;
  if (allowlist.length > 0) return allowlist.some(matches);
  return !blocklist.some(matches);
}
