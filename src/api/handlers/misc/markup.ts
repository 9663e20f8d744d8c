// POST /markdown, /markdown/raw, /markup: HTML written directly (Forgejo: routers/api/v1/misc/markup.go).
import type { MarkupInput } from '../../../services/markup.service.ts';
import type { Handler, RequestContext } from '../../route.ts';

/**
 * Forgejo decodes these bodies into Go structs without JSON tags, so keys match field names in any case
 * (`Text`, `text`); `file_path` and `branch_path` are taken too.
 */
function bodyFields(body: unknown): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  if (body && typeof body === 'object') {
    for (const [key, value] of Object.entries(body)) fields.set(key.toLowerCase().replace(/_/g, ''), value);
  }
  return fields;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function sendHtml(ctx: RequestContext, html: string): void {
  ctx.res.status(200).type('text/html').send(html);
}

export const renderMarkdown: Handler<'renderMarkdown'> = async (ctx) => {
  const fields = bodyFields(ctx.body);
  const mode = text(fields.get('mode'));
  const input: MarkupInput = {
    // Anything but gfm and comment is plain markdown here.
    mode: mode === 'gfm' || mode === 'comment' ? mode : 'markdown',
    text: text(fields.get('text')),
    context: text(fields.get('context')),
    wiki: fields.get('wiki') === true,
  };
  sendHtml(ctx, await ctx.app.services.markup.render(ctx.doer(), input));
};

export const renderMarkdownRaw: Handler<'renderMarkdownRaw'> = async (ctx) => {
  sendHtml(ctx, await ctx.app.services.markup.render(ctx.doer(), { mode: 'markdown', text: text(ctx.body) }));
};

export const renderMarkup: Handler<'renderMarkup'> = async (ctx) => {
  const fields = bodyFields(ctx.body);
  const input: MarkupInput = {
    mode: text(fields.get('mode')),
    text: text(fields.get('text')),
    context: text(fields.get('context')),
    filePath: text(fields.get('filepath')),
    wiki: fields.get('wiki') === true,
  };
  sendHtml(ctx, await ctx.app.services.markup.render(ctx.doer(), input));
};
