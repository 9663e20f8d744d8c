// E-mail addresses for administrators (Forgejo: routers/api/v1/admin/email.go).
import { toEmail } from '../../../convert/email.ts';
import type { Handler } from '../../route.ts';

export const adminGetAllEmails: Handler<'adminGetAllEmails'> = async (ctx) => {
  const page = ctx.listOptions();
  const { emails, total } = await ctx.app.services.userEmails.search('', page);
  ctx.sendPage(200, emails.map(toEmail), page, total);
};

export const adminSearchEmails: Handler<'adminSearchEmails'> = async (ctx) => {
  const page = ctx.listOptions();
  const { emails, total } = await ctx.app.services.userEmails.search(ctx.query.q ?? '', page);
  ctx.sendPage(200, emails.map(toEmail), page, total);
};
