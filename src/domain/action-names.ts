// Names of Actions secrets and variables (Forgejo: services/secrets/validation.go, services/actions/variables.go):
// letters, digits and underscores, not starting with a digit, compared and stored upper-cased.

const NAME = /^[A-Z_][A-Z0-9_]*$/i;
/** Prefixes of the variables the runner sets itself. */
const RESERVED_PREFIX = /^(FORGEJO_|GITEA_|GITHUB_)/i;
/** Variables may not shadow the runner's `CI`; Forgejo v10 refuses every name starting with it. */
const CI_PREFIX = /^CI/i;

export function isValidSecretName(name: string): boolean {
  return NAME.test(name) && !RESERVED_PREFIX.test(name);
}

export function isValidVariableName(name: string): boolean {
  return isValidSecretName(name) && !CI_PREFIX.test(name);
}

/** The stored form of a name, and the form lookups compare with (ASCII only, as names are). */
export function storedActionName(name: string): string {
  return name.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Variable values keep their line breaks as a browser's textarea sends them (Forgejo: util.ReserveLineBreakForTextarea). */
export function normaliseVariableValue(value: string): string {
  return value.replace(/\r\n/g, '\n');
}
