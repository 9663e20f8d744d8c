// `[[Page]]` and `[[Text|Page]]` link to a wiki page of the context (Forgejo: modules/markup/html.go
// shortLinkProcessor); an absolute http(s) URL inside the brackets links to itself. Only in the full pipeline.
import type MarkdownIt from 'markdown-it';
import type { MarkdownEnv } from './markdown.ts';

type StateInline = MarkdownIt.StateInline;

const WIKI_LINK = /^\[\[([^\]\n|]+?)(?:\|([^\]\n]+?))?\]\]/;

function pageHref(target: string, base: string): string {
  if (/^https?:\/\//i.test(target)) return target;
  const page = target.trim().split('/').map((segment) => encodeURIComponent(segment.replace(/ /g, '-'))).join('/');
  return `${base}/wiki/${page}`;
}

export function wikiLinks(md: InstanceType<typeof MarkdownIt>): void {
  md.inline.ruler.before('link', 'wiki_link', (state: StateInline, silent: boolean) => {
    const env = state.env as unknown as MarkdownEnv;
    if (!env.fullPipeline || state.src.charCodeAt(state.pos) !== 0x5b /* [ */ || state.src.charCodeAt(state.pos + 1) !== 0x5b) return false;
    const match = WIKI_LINK.exec(state.src.slice(state.pos));
    if (!match) return false;
    if (!silent) {
      const [label, target] = match[2] === undefined ? [match[1], match[1]] : [match[1], match[2]];
      const href = pageHref(target, env.wikiBase);
      if (!md.validateLink(href)) return false;
      state.push('link_open', 'a', 1).attrs = [['href', href]];
      state.push('text', '', 0).content = label.trim();
      state.push('link_close', 'a', -1);
    }
    state.pos += match[0].length;
    return true;
  });
}
