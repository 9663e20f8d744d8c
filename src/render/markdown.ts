// CommonMark + GFM (tables, strikethrough, task lists, autolinks) through markdown-it, in two steps so the caller
// can look up what the text mentions between them: parse, then render with the references that exist.
// Forgejo: modules/markup/markdown (goldmark); the sanitiser runs on the result.
import MarkdownIt from 'markdown-it';
import taskLists from 'markdown-it-task-lists';
import { headingIds } from './heading-ids.ts';
import { applyReferences, collectReferences, type FoundReferences, type ResolvedReferences } from './references.ts';
import { wikiLinks, type WikiLinkEnv } from './wiki-links.ts';

type Markdown = InstanceType<typeof MarkdownIt>;
type Token = MarkdownIt.Token;

const TRAILING_PUNCTUATION = /[.,:;!?'"*_~)]+$/;
const WWW_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?(?:[/?#][^\s<]*)?/i;

/** GFM's extended autolinks: `www.` hosts are links; bare domains are not. */
function gfmAutolinks(md: Markdown): void {
  md.linkify.add('www.', {
    validate(text: string, pos: number) {
      const match = WWW_HOST.exec(text.slice(pos));
      return match ? match[0].replace(TRAILING_PUNCTUATION, '').length : 0;
    },
    normalize(match: { url: string }) {
      match.url = `http://${match.url}`;
    },
  });
}

function createParser(hardBreaks: boolean): Markdown {
  const md = new MarkdownIt('default', { html: true, linkify: true, breaks: hardBreaks, typographer: false });
  md.use(taskLists);
  md.use(wikiLinks);
  md.use(headingIds);
  gfmAutolinks(md);
  return md;
}

// Documents keep soft line breaks as spaces; comments (and plain markdown mode) turn them into <br>
// (Forgejo's defaults of [markdown] ENABLE_HARD_LINE_BREAK_IN_DOCUMENTS/COMMENTS).
const PARSERS = { document: createParser(false), comment: createParser(true) };

export interface MarkdownOptions {
  readonly hardBreaks: boolean;
  /** Mentions, `#123` issue references and `[[wiki links]]` (the full pipeline of gfm and comment modes). */
  readonly references: boolean;
  /** Absolute URL `[[wiki links]]` resolve under, without a trailing slash. */
  readonly base: string;
  /** A wiki page: `[[links]]` go to `<base>/wiki/<page>`, images to `<base>/wiki/raw/<path>`. */
  readonly wiki: boolean;
}

export interface ParsedMarkdown {
  readonly tokens: Token[];
  readonly options: MarkdownOptions;
  /** What the text mentions; empty unless references are on. */
  readonly found: FoundReferences;
}

export function parseMarkdown(text: string, options: MarkdownOptions): ParsedMarkdown {
  // markdown-it keeps its own keys (`references`) in the same object.
  const env: WikiLinkEnv = { fullPipeline: options.references, base: options.base, wiki: options.wiki };
  const tokens = parser(options).parse(text, env as never);
  const found = options.references ? collectReferences(tokens) : { mentions: new Set<string>(), issues: false };
  return { tokens, options, found };
}

/** HTML of a parsed document, not yet sanitised. */
export function renderParsed(parsed: ParsedMarkdown, resolved: ResolvedReferences | null): string {
  const md = parser(parsed.options);
  if (parsed.options.references && resolved) applyReferences(parsed.tokens, resolved);
  return md.renderer.render(parsed.tokens, md.options, {});
}

function parser(options: MarkdownOptions): Markdown {
  return options.hardBreaks ? PARSERS.comment : PARSERS.document;
}
