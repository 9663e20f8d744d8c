import { isComplexEnough, passwordProblem, type PasswordPolicy } from '../../src/domain/password.ts';

const policy = (overrides: Partial<PasswordPolicy> = {}): PasswordPolicy => ({
  minLength: 8,
  complexity: [],
  checkPwned: false,
  ...overrides,
});

describe('password rules', () => {
  it.each([
    ['short', policy(), 'PasswordIsRequired'],
    ['longenough', policy(), null],
    ['longenough', policy({ complexity: ['upper'] }), 'PasswordComplexity'],
    ['LongEnough1!', policy({ complexity: ['lower', 'upper', 'digit', 'spec'] }), null],
    ['LongEnough1', policy({ complexity: ['spec'] }), 'PasswordComplexity'],
    ['password123', policy({ checkPwned: true }), 'PasswordPwned'],
    ['password123', policy(), null],
    ['a rare passphrase 42', policy({ checkPwned: true }), null],
    ['Password1', policy({ complexity: ['upper', 'digit'], checkPwned: true }), 'PasswordPwned'],
  ] as const)('%s under %j → %s', (password, rules, expected) => {
    expect(passwordProblem(password, rules)).toBe(expected);
  });

  it('knows every character class', () => {
    expect(isComplexEnough('a', ['lower'])).toBe(true);
    expect(isComplexEnough('A', ['upper'])).toBe(true);
    expect(isComplexEnough('7', ['digit'])).toBe(true);
    for (const special of ' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~') expect(isComplexEnough(special, ['spec'])).toBe(true);
    expect(isComplexEnough('abcABC123', ['spec'])).toBe(false);
  });
});
