// Password rules for local accounts (Forgejo: modules/auth/password). The leaked-password check works offline
// against a bundled list of the most common breached passwords instead of asking haveibeenpwned.com.
import fs from 'node:fs';
import { projectPath } from '../lib/project-root.ts';

export type ComplexityClass = 'lower' | 'upper' | 'digit' | 'spec';

const CLASS_PATTERNS: Record<ComplexityClass, RegExp> = {
  lower: /[a-z]/,
  upper: /[A-Z]/,
  digit: /[0-9]/,
  spec: /[ !"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/,
};

export type PasswordProblem = 'PasswordIsRequired' | 'PasswordComplexity' | 'PasswordPwned';

export interface PasswordPolicy {
  minLength: number;
  complexity: readonly ComplexityClass[];
  checkPwned: boolean;
}

/** Whether every required character class appears at least once. */
export function isComplexEnough(password: string, classes: readonly ComplexityClass[]): boolean {
  return classes.every((name) => CLASS_PATTERNS[name].test(password));
}

const BREACHED_LIST_FILE = projectPath('assets', 'passwords', 'common-breached.txt');
let breached: Set<string> | null = null;

export function isCommonBreachedPassword(password: string): boolean {
  breached ??= new Set(
    fs
      .readFileSync(BREACHED_LIST_FILE, 'utf8')
      .split(/\r?\n/)
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return breached.has(password);
}

/** The first rule the password breaks, in Forgejo's order: length, complexity, leaked. */
export function passwordProblem(password: string, policy: PasswordPolicy): PasswordProblem | null {
  if ([...password].length < policy.minLength) return 'PasswordIsRequired';
  if (!isComplexEnough(password, policy.complexity)) return 'PasswordComplexity';
  if (policy.checkPwned && isCommonBreachedPassword(password)) return 'PasswordPwned';
  return null;
}
