// Markup to sanitised HTML: the mode (or, for files, the extension) picks the renderer
// (Forgejo: routers/common/markup.go, modules/markup/renderer.go).
import path from 'node:path';
import { PlainTextValidationError } from '../errors.ts';
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

/** Looks up which mentioned accounts exist and where issues of the context live. */
export type ReferenceResolver = (found: FoundReferences) => Promise<ResolvedReferences>;

const MARKDOWN_EXTENSIONS = new Set(['.md', '.markdown', '.mdown', '.mkd', '.livemd']);
const PLAIN_TEXT_EXTENSIONS = new Set(['.txt', '.text']);

export function isRenderMode(mode: string): mode is RenderMode {
  return (RENDER_MODES as readonly string[]).includes(mode);
}

async function renderMarkdown(request: RenderRequest, hardBreaks: boolean, references: boolean, resolve: ReferenceResolver): Promise<string> {
  const parsed = parseMarkdown(request.text, { hardBreaks, references, base: request.base });
  const needsLookup = references && (parsed.found.mentions.size > 0 || parsed.found.issues);
  return renderParsed(parsed, needsLookup ? await resolve(parsed.found) : null);
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

async function renderFile(request: RenderRequest, resolve: ReferenceResolver): Promise<string> {
  const extension = path.extname(request.filePath ?? '').toLowerCase();
  if (MARKDOWN_EXTENSIONS.has(extension)) return renderMarkdown(request, false, true, resolve);
  if (PLAIN_TEXT_EXTENSIONS.has(extension)) return plainText(request.text);
  if (extension === '.csv') return delimited(request.text, ',');
  if (extension === '.tsv') return delimited(request.text, '\t');
  if (extension === '.sh-session') return renderConsole(request.text);
  if (extension === '.cast') {
    const output = asciicastOutput(request.text);
    return output === null ? plainText(request.text) : renderConsole(output);
  }
  throw new PlainTextValidationError(`Unsupported render extension: ${extension}`);
}

/** Sanitised HTML of the text; an unknown mode or file extension is a 422 with Forgejo's plain-text message. */
export async function renderMarkup(request: RenderRequest, resolve: ReferenceResolver): Promise<string> {
  if (request.text === '') return '';
  let html: string;
  switch (request.mode) {
    case 'markdown':
      html = await renderMarkdown(request, true, false, resolve);
      break;
    case 'comment':
      html = await renderMarkdown(request, true, true, resolve);
      break;
    case 'gfm':
      html = await renderMarkdown(request, false, true, resolve);
      break;
    case 'file':
      html = await renderFile(request, resolve);
      break;
    default:
      throw new PlainTextValidationError(`Unknown mode: ${request.mode}`);
  }
  // Plain markdown mode knows no wiki (Forgejo renders it raw).
  return sanitize(html, { base: request.base, wiki: request.wiki && request.mode !== 'markdown' });
}
