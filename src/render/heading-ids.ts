// Headings get ids from their text, prefixed `user-content-` so no document can take an id of the page around it;
// a repeated id gets -1, -2… and `## Title {#custom}` names its own (Forgejo: modules/markup/markdown
// prefixedIDs, modules/markup/common CleanValue).
import type MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

const PREFIX = 'user-content-';
const KEPT = /[\p{L}\p{N}_-]/u;
const SPACE = /\s/u;

/** Letters, digits, `_` and `-` lower-cased; each white-space character becomes `-`, everything else goes. */
export function headingSlug(text: string): string {
  let slug = '';
  for (const char of text.trim()) {
    if (KEPT.test(char)) slug += char.toLowerCase();
    else if (SPACE.test(char)) slug += '-';
  }
  return slug;
}

/** Ids given so far in a document, and the next number to try after each (so n equal headings cost n steps). */
interface TakenIds {
  ids: Set<string>;
  nextNumber: Map<string, number>;
}

/** An id no earlier heading of the document has. */
function uniqueId(wanted: string, taken: TakenIds): string {
  const base = wanted.startsWith(PREFIX) ? wanted : PREFIX + wanted;
  let id = base;
  let n = taken.nextNumber.get(base) ?? 1;
  while (taken.ids.has(id)) id = `${base}-${n++}`;
  taken.nextNumber.set(base, n);
  taken.ids.add(id);
  return id;
}

/** Takes a trailing `{#id}` off the heading's last text, answering the id. */
function takeCustomId(children: Token[]): string | null {
  const last = children.at(-1);
  if (last?.type !== 'text') return null;
  const text = last.content.trimEnd();
  if (!text.endsWith('}')) return null;
  const open = text.lastIndexOf('{#');
  const id = open === -1 ? '' : text.slice(open + 2, -1);
  if (id === '' || /[\s{}]/.test(id)) return null;
  last.content = text.slice(0, open).trimEnd();
  return id;
}

function plainText(children: Token[]): string {
  return children.map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : '')).join('');
}

export function headingIds(md: InstanceType<typeof MarkdownIt>): void {
  md.core.ruler.push('heading_ids', (state) => {
    const taken: TakenIds = { ids: new Set(), nextNumber: new Map() };
    const { tokens } = state;
    for (let index = 0; index + 1 < tokens.length; index++) {
      if (tokens[index].type !== 'heading_open' || tokens[index + 1].type !== 'inline') continue;
      const children = tokens[index + 1].children ?? [];
      const custom = takeCustomId(children);
      tokens[index].attrSet('id', uniqueId(custom ?? (headingSlug(plainText(children)) || 'heading'), taken));
    }
  });
}
