// `@name` mentions and `#123` issue references in the text of a markdown document (never inside links or code),
// found after parsing and turned into links once the caller knows which exist (Forgejo: modules/markup/html.go
// mentionProcessor and issueIndexPatternProcessor; the boundaries follow its patterns).
import type MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;

const BEFORE = String.raw`(^|[\s(\[])`;
const AFTER = String.raw`(?=$|[\s)\]]|[:;,.?!](?:\s|$))`;
const MENTION = new RegExp(`${BEFORE}@([\\w][\\w.-]*?)${AFTER}`, 'g');
const ISSUE = new RegExp(`${BEFORE}#([0-9]+)${AFTER}`, 'g');

export interface FoundReferences {
  /** Lower-cased names after `@`. */
  readonly mentions: Set<string>;
  /** Whether any `#123` appears. */
  readonly issues: boolean;
}

export interface ResolvedReferences {
  /** Existing accounts that may be linked: lower-cased name ─▶ the account's page. */
  readonly accounts: ReadonlyMap<string, string>;
  /** `<repository page>/issues`, when the context names a repository the reader may see. */
  readonly issuesUrl: string | null;
}

/** Text tokens outside links, in document order. */
function* plainTextTokens(tokens: readonly Token[]): Generator<{ children: Token[]; index: number }> {
  for (const block of tokens) {
    if (block.type !== 'inline' || !block.children) continue;
    let linkDepth = 0;
    for (let index = 0; index < block.children.length; index++) {
      const child = block.children[index];
      if (child.type === 'link_open') linkDepth++;
      else if (child.type === 'link_close') linkDepth--;
      else if (child.type === 'text' && linkDepth === 0) yield { children: block.children, index };
    }
  }
}

export function collectReferences(tokens: readonly Token[]): FoundReferences {
  const mentions = new Set<string>();
  let issues = false;
  for (const { children, index } of plainTextTokens(tokens)) {
    const text = children[index].content;
    if (text.includes('@')) for (const match of text.matchAll(MENTION)) mentions.add(match[2].toLowerCase());
    if (!issues && text.includes('#')) issues = ISSUE.test(text);
    ISSUE.lastIndex = 0;
  }
  return { mentions, issues };
}

interface Replacement {
  start: number;
  end: number;
  href: string;
  className: string;
}

function replacementsIn(text: string, resolved: ResolvedReferences): Replacement[] {
  const found: Replacement[] = [];
  for (const match of text.matchAll(MENTION)) {
    const href = resolved.accounts.get(match[2].toLowerCase());
    const start = match.index + match[1].length;
    if (href) found.push({ start, end: start + 1 + match[2].length, href, className: 'mention' });
  }
  if (resolved.issuesUrl) {
    for (const match of text.matchAll(ISSUE)) {
      const start = match.index + match[1].length;
      found.push({ start, end: start + 1 + match[2].length, href: `${resolved.issuesUrl}/${match[2]}`, className: 'ref-issue' });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Splits text tokens around each reference that exists and wraps it in a link. */
export function applyReferences(tokens: readonly Token[], resolved: ResolvedReferences): void {
  // Collected first: splicing while walking would shift the indexes still to visit.
  const edits = [...plainTextTokens(tokens)].map(({ children, index }) => ({ children, token: children[index] }));
  for (const { children, token } of edits) {
    const replacements = replacementsIn(token.content, resolved);
    if (replacements.length === 0) continue;
    const TokenClass = token.constructor as new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;
    const text = (content: string) => Object.assign(new TokenClass('text', '', 0), { content });
    const pieces: Token[] = [];
    let at = 0;
    for (const { start, end, href, className } of replacements) {
      if (start < at) continue;
      if (start > at) pieces.push(text(token.content.slice(at, start)));
      const open = new TokenClass('link_open', 'a', 1);
      open.attrs = [['href', href], ['class', className]];
      pieces.push(open, text(token.content.slice(start, end)), new TokenClass('link_close', 'a', -1));
      at = end;
    }
    if (at < token.content.length) pieces.push(text(token.content.slice(at)));
    children.splice(children.indexOf(token), 1, ...pieces);
  }
}
