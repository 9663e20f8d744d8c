// Filling a licence text for a new repository's LICENSE file, as Forgejo does (modules/repository/license.go):
// placeholders that stand for the copyright holder, e-mail, program and year in the SPDX texts are replaced.

export interface LicenseValues {
  owner: string;
  email: string;
  repo: string;
  year: string;
}

interface Placeholders {
  owner: readonly string[];
  email: readonly string[];
  repo: readonly string[];
  year: readonly string[];
  /** Only lines matching this are filled (a licence whose placeholder words also occur as ordinary words). */
  onlyLines?: RegExp;
}

// Spellings that are placeholders in every licence text they occur in.
const COMMON: Placeholders = {
  owner: [
    '<name of author>',
    '<owner>',
    '[NAME]',
    '[name of copyright owner]',
    '[name of copyright holder]',
    '<COPYRIGHT HOLDERS>',
    '<copyright holders>',
    '<AUTHOR>',
    "<author's name or designee>",
    '[one or more legally recognised persons or entities offering the Work under the terms and conditions of this Licence]',
  ],
  email: ['[EMAIL]'],
  repo: ['<program>', "<one line to give the program's name and a brief idea of what it does.>"],
  year: ['<year>', '[YEAR]', '{YEAR}', '[yyyy]', '[Year]', '[year]'],
};

const SPECIAL: Record<string, Placeholders> = {
  // Bare words: only the copyright line holds placeholders ("AUTHOR" also appears in the disclaimer).
  '0BSD': {
    owner: ['AUTHOR'],
    email: ['EMAIL'],
    repo: [],
    year: ['YEAR'],
    onlyLines: /Copyright \(C\) YEAR by AUTHOR EMAIL/,
  },
};

export function fillLicense(spdxId: string, text: string, values: LicenseValues): string {
  const placeholders = SPECIAL[spdxId] ?? COMMON;
  const lines = text.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  return lines
    .map((line) => {
      if (placeholders.onlyLines && !placeholders.onlyLines.test(line)) return line;
      let filled = line;
      for (const key of ['owner', 'email', 'repo', 'year'] as const) {
        for (const placeholder of placeholders[key]) filled = filled.split(placeholder).join(values[key]);
      }
      return filled;
    })
    .map((line) => line + '\n')
    .join('');
}
