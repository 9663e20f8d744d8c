// `@name` mentions and `#123` issue references in the text of a markdown document (never inside links or code),
// found after parsing and turned into links once the caller knows which exist (Forgejo: modules/markup/html.go
// mentionProcessor and issueIndexPatternProcessor; the boundaries follow its patterns). Scanned in one pass over
// each text, and each inline run rebuilt once, so the cost stays linear in the document however many there are.
import type MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;
type TokenConstructor = new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;

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

interface Reference {
  kind: 'mention' | 'issue';
  /** Index of `@` or `#`. */
  start: number;
  end: number;
  /** The name (lower-cased) or the issue number. */
  key: string;
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);
const isWordChar = (char: string | undefined) => char !== undefined && /\w/.test(char);
const isNameChar = (char: string | undefined) => isWordChar(char) || char === '.' || char === '-';
const isDigit = (char: string | undefined) => char !== undefined && char >= '0' && char <= '9';

/** What may come before a reference: the start, white space, `(` or `[`. */
function startsReference(text: string, at: number): boolean {
  const before = text[at - 1];
  return at === 0 || isSpace(before) || before === '(' || before === '[';
}

/** What may end one: the end, white space, `)` or `]`, or punctuation followed by one of the first two. */
function endsReference(text: string, at: number): boolean {
  const char = text[at];
  if (char === undefined || isSpace(char) || char === ')' || char === ']') return true;
  return ':;,.?!'.includes(char) && (at + 1 === text.length || isSpace(text[at + 1]));
}

/** `@name`: the shortest name (word characters, `.`, `-`, starting with a word character) that ends a reference. */
function mentionAt(text: string, at: number): Reference | null {
  if (!isWordChar(text[at + 1])) return null;
  let runEnd = at + 2;
  while (isNameChar(text[runEnd])) runEnd++;
  // Inside the run only a `.` can end it, and only its last character with white space or the end after it.
  let end = -1;
  if (text[runEnd - 1] === '.' && runEnd - 1 > at + 1 && endsReference(text, runEnd - 1)) end = runEnd - 1;
  else if (endsReference(text, runEnd)) end = runEnd;
  return end === -1 ? null : { kind: 'mention', start: at, end, key: text.slice(at + 1, end).toLowerCase() };
}

function issueAt(text: string, at: number): Reference | null {
  let end = at + 1;
  while (isDigit(text[end])) end++;
  if (end === at + 1 || !endsReference(text, end)) return null;
  return { kind: 'issue', start: at, end, key: text.slice(at + 1, end) };
}

/** The references of a text, in order. */
export function scanReferences(text: string): Reference[] {
  const found: Reference[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if ((char !== '@' && char !== '#') || !startsReference(text, at)) continue;
    const reference = char === '@' ? mentionAt(text, at) : issueAt(text, at);
    if (reference) {
      found.push(reference);
      at = reference.end - 1;
    }
  }
  return found;
}

/** The inline runs (paragraph and heading contents) of a document. */
function* inlineRuns(tokens: readonly Token[]): Generator<Token> {
  for (const block of tokens) if (block.type === 'inline' && block.children) yield block;
}

function* plainTexts(children: readonly Token[]): Generator<Token> {
  let linkDepth = 0;
  for (const child of children) {
    if (child.type === 'link_open') linkDepth++;
    else if (child.type === 'link_close') linkDepth--;
    else if (child.type === 'text' && linkDepth === 0) yield child;
  }
}

export function collectReferences(tokens: readonly Token[]): FoundReferences {
  const mentions = new Set<string>();
  let issues = false;
  for (const run of inlineRuns(tokens)) {
    for (const text of plainTexts(run.children!)) {
      if (!text.content.includes('@') && !text.content.includes('#')) continue;
      for (const reference of scanReferences(text.content)) {
        if (reference.kind === 'mention') mentions.add(reference.key);
        else issues = true;
      }
    }
  }
  return { mentions, issues };
}

function hrefOf(reference: Reference, resolved: ResolvedReferences): string | undefined {
  if (reference.kind === 'mention') return resolved.accounts.get(reference.key);
  return resolved.issuesUrl ? `${resolved.issuesUrl}/${reference.key}` : undefined;
}

/** The pieces a text token becomes: text between links to the references that exist. */
function linkedPieces(token: Token, resolved: ResolvedReferences, out: Token[]): void {
  const TokenClass = token.constructor as TokenConstructor;
  const text = (content: string) => Object.assign(new TokenClass('text', '', 0), { content });
  let at = 0;
  for (const reference of scanReferences(token.content)) {
    const href = hrefOf(reference, resolved);
    if (!href) continue;
    if (reference.start > at) out.push(text(token.content.slice(at, reference.start)));
    const open = new TokenClass('link_open', 'a', 1);
    open.attrs = [
      ['href', href],
      ['class', reference.kind === 'mention' ? 'mention' : 'ref-issue'],
    ];
    out.push(open, text(token.content.slice(reference.start, reference.end)), new TokenClass('link_close', 'a', -1));
    at = reference.end;
  }
  if (at === 0) out.push(token);
  else if (at < token.content.length) out.push(text(token.content.slice(at)));
}

/** Wraps each reference that exists in a link, rebuilding each inline run's children once. */
export function applyReferences(tokens: readonly Token[], resolved: ResolvedReferences): void {
  for (const run of inlineRuns(tokens)) {
    const plain = new Set(plainTexts(run.children!));
    const children: Token[] = [];
    for (const child of run.children!) {
      if (plain.has(child)) linkedPieces(child, resolved, children);
      else children.push(child);
    }
    run.children = children;
  }
}
