// Which programming or markup language a file is, by its name (linguist's data: linguist-languages), and whether it
// counts in a repository's language statistics: vendored, documentation and dot paths do not, as go-enry decides for
// Forgejo (modules/git/repo_language_stats.go), in a simpler form.
import type Linguist from 'linguist-languages';

/** Languages whose bytes count: programming and markup, not data or prose (Forgejo keeps the same two types). */
const COUNTED_TYPES = new Set(['programming', 'markup']);

/**
 * Extensions several languages claim, and the one they usually are: linguist settles these by reading the file
 * (its heuristics), which this does not do. Other ambiguous extensions go to the first claimant in linguist's order.
 */
const USUALLY: Readonly<Record<string, string>> = {
  '.md': 'Markdown',
  '.rs': 'Rust',
  '.h': 'C',
  '.m': 'Objective-C',
  '.pl': 'Perl',
  '.cs': 'C#',
  '.php': 'PHP',
  '.v': 'Verilog',
  '.fs': 'F#',
  '.ts': 'TypeScript',
  '.sql': 'SQL',
  '.html': 'HTML',
  '.cls': 'TeX',
};

type Tables = { byFileName: Map<string, string | null>; byExtension: Map<string, string | null> };
let tables: Tables | undefined;

/** linguist's data (700 modules) is read on the first question, not at start. */
function languageTables(): Tables {
  if (tables) return tables;
  const linguist = require('linguist-languages') as typeof Linguist;
  const byFileName = new Map<string, string | null>();
  const byExtension = new Map<string, string | null>();
  const counted = (name: string) => COUNTED_TYPES.has(linguist[name as keyof typeof linguist]?.type ?? '');
  for (const language of Object.values(linguist)) {
    // Every language claims its names, so that a data or prose file is not taken for a counted language.
    const name = counted(language.name) ? language.name : null;
    for (const file of language.filenames ?? []) if (!byFileName.has(file)) byFileName.set(file, name);
    for (const extension of language.extensions ?? []) {
      const key = extension.toLowerCase();
      if (!byExtension.has(key)) byExtension.set(key, name);
    }
  }
  for (const [extension, language] of Object.entries(USUALLY))
    byExtension.set(extension, counted(language) ? language : null);
  return (tables = { byFileName, byExtension });
}

const EXCLUDED = [
  /(^|\/)(node_modules|vendor|vendors|third[-_]party|bower_components|Godeps|\.yarn)\//i,
  /(^|\/)(docs?|documentation)\//i,
  /(^|\/)\.[^/]*\//, // dot directories (.github, .vscode, …)
  /(^|\/)\.[^/]*$/, // dot files
  /\.min\.(js|css)$/i,
];

/** The language a file counts for in the statistics, or null. */
export function statisticsLanguage(path: string): string | null {
  if (EXCLUDED.some((pattern) => pattern.test(path))) return null;
  const { byFileName, byExtension } = languageTables();
  const name = path.slice(path.lastIndexOf('/') + 1);
  const byName = byFileName.get(name);
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? (byExtension.get(name.slice(dot).toLowerCase()) ?? null) : null;
}
