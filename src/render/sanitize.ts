// The allow-list every rendered document passes through last: only presentational tags and attributes survive,
// links and images keep http(s)/mailto (or relative) URLs only, and relative URLs are resolved against the
// document's base. Whatever markdown-it lets through as raw HTML is judged here like everything else. Links carry
// rel="nofollow", heading ids keep only the `user-content-` ones, and empty elements close as `<br/>`, as in
// Forgejo's output (modules/markup/sanitizer.go; its HTML writer).
import sanitizeHtml from 'sanitize-html';

export interface LinkBase {
  /** Absolute URL that relative links resolve against (ends without a slash). */
  readonly base: string;
  /** Wiki documents: pages live under <base>/wiki/, their images under <base>/wiki/raw/. */
  readonly wiki: boolean;
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

const ALLOWED_TAGS = [
  ...HEADINGS,
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'kbd',
  'samp',
  'var',
  'b',
  'i',
  'strong',
  'em',
  'del',
  's',
  'strike',
  'ins',
  'sub',
  'sup',
  'u',
  'mark',
  'small',
  'abbr',
  'q',
  'cite',
  'dfn',
  'a',
  'img',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'details',
  'summary',
  'div',
  'span',
  'figure',
  'figcaption',
  'ruby',
  'rt',
  'rp',
  'input',
];

const TEXT_ALIGN = [/^(left|right|center|justify)$/];

const BASE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: {
    a: ['href', 'title', 'class', 'rel'],
    ...Object.fromEntries(HEADINGS.map((tag) => [tag, ['id']])),
    img: ['src', 'alt', 'title', 'width', 'height', 'align'],
    input: [{ name: 'type', values: ['checkbox'] }, 'checked', 'disabled', 'class'],
    ol: ['start'],
    li: ['class'],
    ul: ['class'],
    code: ['class'],
    pre: ['class'],
    span: ['class'],
    table: ['class'],
    th: ['align', 'colspan', 'rowspan', 'style', 'class'],
    td: ['align', 'colspan', 'rowspan', 'style', 'class'],
    details: ['open'],
    abbr: ['title'],
    q: ['cite'],
    blockquote: ['cite'],
  },
  allowedClasses: {
    a: ['mention', 'ref-issue'],
    input: ['task-list-item-checkbox'],
    li: ['task-list-item'],
    ul: ['contains-task-list'],
    code: [/^language-[\w+#-]+$/],
    pre: ['console', 'plain-text'],
    span: [/^term-(fg|bg)\d{1,3}$/, 'term-bold'],
    table: ['data-table'],
    th: ['line-num'],
    td: ['line-num'],
  },
  allowedStyles: {
    th: { 'text-align': TEXT_ALIGN },
    td: { 'text-align': TEXT_ALIGN },
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  // Only checkboxes are inputs here; a text field or image button from raw HTML goes.
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
  disallowedTagsMode: 'discard',
  enforceHtmlBoundary: false,
};

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// What the URL parser ignores (leading C0 controls and spaces, tabs and newlines anywhere), so the scheme test
// sees the URL a browser would.
const IGNORED_BY_URL_PARSER = /[\u0000-\u0020]/g;

/** Joins a relative reference to the base; anything with a scheme, an absolute path or a fragment stays as it is. */
function resolve(reference: string, base: string): string {
  const bare = reference.replace(IGNORED_BY_URL_PARSER, '');
  if (bare === '' || HAS_SCHEME.test(bare) || /^[/#?]/.test(bare) || /^\\/.test(bare)) return reference;
  try {
    return new URL(reference, `${base}/`).toString();
  } catch {
    return reference;
  }
}

function withResolved(
  attribute: 'href' | 'src',
  base: (links: LinkBase) => string,
  links: LinkBase,
): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const value = attribs[attribute];
    if (value !== undefined) attribs[attribute] = resolve(value, base(links));
    return { tagName, attribs };
  };
}

const pageBase = (links: LinkBase) => (links.wiki ? `${links.base}/wiki` : links.base);
const imageBase = (links: LinkBase) => (links.wiki ? `${links.base}/wiki/raw` : links.base);

/** Every link is nofollow (and only that: a rel of the text's own is replaced). */
function nofollow(transform: sanitizeHtml.Transformer): sanitizeHtml.Transformer {
  return (tagName, attribs) => {
    const { rel: _ignored, ...rest } = attribs;
    const result = transform(tagName, rest);
    if (result.attribs.href !== undefined) result.attribs.rel = 'nofollow';
    return result;
  };
}

/** Heading ids are the renderer's (`user-content-…`); an id from raw HTML could take one of the page around it. */
const headingId: sanitizeHtml.Transformer = (tagName, attribs) => {
  const { id, ...rest } = attribs;
  return { tagName, attribs: id?.startsWith('user-content-') ? { id, ...rest } : rest };
};

// Written by sanitize-html as ` />`; Forgejo writes `/>`. Text and attribute values never hold a raw `>`.
const SELF_CLOSING = / \/>/g;

export function sanitize(html: string, links: LinkBase): string {
  return sanitizeHtml(html, {
    ...BASE_OPTIONS,
    transformTags: {
      ...Object.fromEntries(HEADINGS.map((tag) => [tag, headingId])),
      a: nofollow(withResolved('href', pageBase, links)),
      img: withResolved('src', imageBase, links),
      // Task-list checkboxes are shown, never edited: a checkbox from raw HTML is disabled like ours.
      input: (tagName, attribs) => ({ tagName, attribs: { ...attribs, disabled: '' } }),
    },
  }).replace(SELF_CLOSING, '/>');
}
