// CSV and TSV files as a table: the first row is the header, every row carries its line number
// (Forgejo: modules/markup/csv). Ragged rows and stray quotes are shown as they are rather than refused.
import { parse } from 'csv-parse/sync';
import { escapeHtml } from './html.ts';

export function renderDelimited(text: string, delimiter: ',' | '\t'): string {
  const rows: string[][] = parse(text, {
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    bom: true,
  });
  const html: string[] = ['<table class="data-table">'];
  rows.forEach((row, index) => {
    const cell = index === 0 ? 'th' : 'td';
    html.push(`<tr><${cell} class="line-num">${index + 1}</${cell}>`);
    for (const value of row) html.push(`<${cell}>${escapeHtml(value)}</${cell}>`);
    html.push('</tr>');
  });
  html.push('</table>');
  return html.join('');
}
