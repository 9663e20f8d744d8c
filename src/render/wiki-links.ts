// `[[Page]]`, `[[Text|Page]]` and `[[images/pic.png]]` link to pages (images) under the document's base, or under
// its wiki (`<base>/wiki/…`, images `<base>/wiki/raw/…`) when the document is a wiki page (Forgejo:
// modules/markup/html.go shortLinkProcessor). An http(s) URL inside the brackets links to itself. The brackets close
// on the same line, and word characters right after them join the text (`[[Page]]s`). Only in the full pipeline.
import path from 'node:path';
import type MarkdownIt from 'markdown-it';
import { ForwardSearch } from './forward-search.ts';
import { escapeHtml } from './html.ts';

type StateInline = MarkdownIt.StateInline;

/** What the rule reads from the parser's environment. */
export interface WikiLinkEnv {
  fullPipeline: boolean;
  /** Absolute URL of the document's context, without a trailing slash. */
  base: string;
  wiki: boolean;
  /** Searches for `]]` and line ends, shared by all `[[` of one document. */
  wikiSearch?: { close: ForwardSearch; lineEnd: ForwardSearch };
}

const IMAGE_EXTENSIONS = new Set(['.jpg', '.jpeg', '.png', '.tif', '.tiff', '.webp', '.gif', '.bmp', '.ico', '.svg']);
const LINK = /https?:\/\/\S/i;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const WORD_CHAR = /[A-Za-z0-9_]/;
const QUOTES: [string, string][] = [
  ['“', '”'],
  ['‘', '’'],
  ['"', '"'],
  ["'", "'"],
  ["'", '’'],
];

interface WikiLink {
  href: string;
  /** Text of a page link; null for an image. */
  text: string | null;
  image?: { title: string; alt: string };
}

function unquote(value: string): string {
  if (value.length < 2) return value;
  const pair = QUOTES.find(([open, close]) => value.startsWith(open) && value.endsWith(close));
  return pair ? value.slice(pair[0].length, value.length - pair[1].length) : value;
}

/** Go's url.PathEscape: a single path segment, with `$&+:=@` left as they are. */
function escapeSegment(segment: string): string {
  return encodeURIComponent(segment)
    .replace(/%(24|26|2B|3A|3D|40)/gi, (escape) => decodeURIComponent(escape))
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function join(prefix: string, reference: string): string {
  try {
    return new URL(reference, `${prefix}/`).toString();
  } catch {
    return `${prefix}/${reference}`;
  }
}

/**
 * The parts between the brackets: `|`-separated, `key=value` ones optional (title, alt). GitHub's order
 * (`text|page`) unless only the first part looks like a URL (MediaWiki's `page|text`).
 */
function resolveWikiLink(content: string, tail: string, env: WikiLinkEnv): WikiLink | null {
  const props = new Map<string, string>();
  for (const part of content.split('|')) {
    const equals = part.indexOf('=');
    if (equals !== -1) props.set(part.slice(0, equals), unquote(part.slice(equals + 1)));
    else if (props.get('name')) props.set('link', part.trim());
    else if (LINK.test(part)) {
      if (props.get('link')) props.set('name', props.get('link')!);
      props.set('link', part.trim());
    } else props.set('name', part);
  }
  let link = props.get('link') || props.get('name') || '';
  const absolute = LINK.test(link);
  // A page name with a scheme of its own (`javascript:`, `data:`) names no page.
  if (link === '' || (!absolute && SCHEME.test(link.trim()))) return null;
  const name = (props.get('title') || props.get('name') || link) + tail;
  const image = IMAGE_EXTENSIONS.has(path.extname(link));
  if (!absolute) {
    link = link.replace(/ /g, image ? '+' : '-');
    if (!link.includes('/')) link = escapeSegment(link);
  }
  if (!image) return { href: absolute ? link : join(env.wiki ? `${env.base}/wiki` : env.base, link), text: name };
  const href = absolute ? link : join(env.wiki ? `${env.base}/wiki/raw` : env.base, link);
  const title = props.get('title') || props.get('alt') || path.posix.basename(name);
  return { href, text: null, image: { title, alt: props.get('alt') || name } };
}

function imageHtml(src: string, image: { title: string; alt: string }): string {
  const alt = image.alt === '' ? '' : ` alt="${escapeHtml(image.alt)}"`;
  return `<img src="${escapeHtml(src)}" title="${escapeHtml(image.title)}"${alt}>`;
}

export function wikiLinks(md: InstanceType<typeof MarkdownIt>): void {
  md.inline.ruler.before('link', 'wiki_link', (state: StateInline, silent: boolean) => {
    const env = state.env as unknown as WikiLinkEnv;
    const { src, pos } = state;
    if (!env.fullPipeline || src.charCodeAt(pos) !== 0x5b /* [ */ || src.charCodeAt(pos + 1) !== 0x5b) return false;
    const search = (env.wikiSearch ??= { close: new ForwardSearch(']]'), lineEnd: new ForwardSearch('\n') });
    const close = search.close.next(src, pos + 2);
    const lineEnd = search.lineEnd.next(src, pos + 2);
    if (close === -1 || close >= state.posMax || (lineEnd !== -1 && lineEnd < close)) return false;
    let end = close + 2;
    while (end < state.posMax && WORD_CHAR.test(src[end])) end++;
    const found = resolveWikiLink(src.slice(pos + 2, close), src.slice(close + 2, end), env);
    if (!found || !md.validateLink(found.href)) return false;
    if (!silent) {
      state.push('link_open', 'a', 1).attrs = [['href', found.href]];
      if (found.image) state.push('html_inline', '', 0).content = imageHtml(found.href, found.image);
      else state.push('text', '', 0).content = found.text ?? '';
      state.push('link_close', 'a', -1);
    }
    state.pos = end;
    return true;
  });
}
