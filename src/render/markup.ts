// Markup to sanitised HTML: the mode (or, for files, the extension) picks the renderer
// (Forgejo: routers/common/markup.go, modules/markup/renderer.go). Synchronous and self-contained, so it can run
// on a worker thread: a document that mentions accounts or issues is answered with what it mentions first, and
// rendered once the caller has looked those up.
import { memberOf } from '../lib/member-of.ts';
import path from 'node:path';
import { asciicastOutput, renderConsole } from './console.ts';
import { renderDelimited } from './csv.ts';
import { escapeHtml } from './html.ts';
import { parseMarkdown, renderParsed } from './markdown.ts';
import type { FoundReferences, ResolvedReferences } from './references.ts';
import { sanitize } from './sanitize.ts';

export const RENDER_MODES = ['markdown', 'comment', 'gfm', 'file'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

export interface RenderRequest {
  readonly mode: string;
  readonly text: string;
  /** For mode `file`: its extension picks the renderer. */
  readonly filePath?: string;
  /** Absolute URL relative links resolve against, without a trailing slash. */
  readonly base: string;
  readonly wiki: boolean;
}

export type RenderOutcome =
  | { readonly html: string }
  /** Look these up, then render again with what exists. */
  | { readonly references: FoundReferences }
  /** An unknown mode or file extension: Forgejo's plain-text message. */
  | { readonly invalid: string };

interface MarkdownStyle {
  readonly hardBreaks: boolean;
  /** Mentions, issue references and wiki links. */
  readonly references: boolean;
}

const MARKDOWN: MarkdownStyle = { hardBreaks: true, references: false };
const COMMENT: MarkdownStyle = { hardBreaks: true, references: true };
const DOCUMENT: MarkdownStyle = { hardBreaks: false, references: true };

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);
const PLAIN_TEXT_EXTENSIONS = new Set(['.txt', '.text']);

export const isRenderMode = memberOf(RENDER_MODES);

function renderMarkdown(
  request: RenderRequest,
  style: MarkdownStyle,
  resolved: ResolvedReferences | null,
): RenderOutcome {
  const parsed = parseMarkdown(request.text, { ...style, base: request.base, wiki: request.wiki });
  const mentionsAny = parsed.found.mentions.size > 0 || parsed.found.issues;
  if (style.references && mentionsAny && !resolved) return { references: parsed.found };
  return { html: renderParsed(parsed, resolved) };
}

function plainText(text: string): string {
  return `<pre class="plain-text">${escapeHtml(text)}</pre>`;
}

function delimited(text: string, delimiter: ',' | '\t'): string {
  try {
    return renderDelimited(text, delimiter);
  } catch {
    // Text the CSV parser cannot read (an unclosed quote) is still shown.
    return plainText(text);
  }
}

function renderFile(request: RenderRequest, resolved: ResolvedReferences | null): RenderOutcome {
  const extension = path.extname(request.filePath ?? '').toLowerCase();
  if (MARKDOWN_EXTENSIONS.has(extension)) return renderMarkdown(request, DOCUMENT, resolved);
  if (PLAIN_TEXT_EXTENSIONS.has(extension)) return { html: plainText(request.text) };
  if (extension === '.csv') return { html: delimited(request.text, ',') };
  if (extension === '.tsv') return { html: delimited(request.text, '\t') };
  if (extension === '.sh-session') return { html: renderConsole(request.text) };
  if (extension === '.cast') {
    const output = asciicastOutput(request.text);
    return { html: output === null ? plainText(request.text) : renderConsole(output) };
  }
  return { invalid: `Unsupported render extension: ${extension}` };
}

function renderUnsanitised(request: RenderRequest, resolved: ResolvedReferences | null): RenderOutcome {
  switch (request.mode) {
    case 'markdown':
      return renderMarkdown(request, MARKDOWN, resolved);
    case 'comment':
      return renderMarkdown(request, COMMENT, resolved);
    case 'gfm':
      return renderMarkdown(request, DOCUMENT, resolved);
    case 'file':
      return renderFile(request, resolved);
    default:
      return { invalid: `Unknown mode: ${request.mode}` };
  }
}

/** Sanitised HTML of the text, what it mentions (when `resolved` is null and it mentions any), or why not. */
export function renderMarkup(request: RenderRequest, resolved: ResolvedReferences | null): RenderOutcome {
  if (request.text === '') return { html: '' };
  const outcome = renderUnsanitised(request, resolved);
  if (!('html' in outcome)) return outcome;
  // Plain markdown mode knows no wiki (Forgejo renders it raw).
  return { html: sanitize(outcome.html, { base: request.base, wiki: request.wiki && request.mode !== 'markdown' }) };
}
