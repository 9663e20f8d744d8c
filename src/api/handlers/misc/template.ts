import {
  toGitignoreTemplateInfo,
  toLabelTemplate,
  toLicenseListEntry,
  toLicenseTemplateInfo,
} from '../../../convert/template.ts';
import type { Handler } from '../../route.ts';

export const listGitignoresTemplates: Handler<'listGitignoresTemplates'> = (ctx) => {
  ctx.send(200, [...ctx.app.services.templates.gitignoreNames()]);
};

export const getGitignoreTemplateInfo: Handler<'getGitignoreTemplateInfo'> = (ctx) => {
  ctx.send(200, toGitignoreTemplateInfo(ctx.app.services.templates.gitignore(ctx.params.name)));
};

export const listLicenseTemplates: Handler<'listLicenseTemplates'> = (ctx) => {
  const rootUrl = ctx.app.settings.server.ROOT_URL;
  ctx.send(
    200,
    ctx.app.services.templates.licenseNames().map((name) => toLicenseListEntry(name, rootUrl)),
  );
};

export const getLicenseTemplateInfo: Handler<'getLicenseTemplateInfo'> = (ctx) => {
  ctx.send(
    200,
    toLicenseTemplateInfo(ctx.app.services.templates.license(ctx.params.name), ctx.app.settings.server.ROOT_URL),
  );
};

export const listLabelTemplates: Handler<'listLabelTemplates'> = (ctx) => {
  ctx.send(200, ctx.app.services.templates.labelTemplateNames());
};

export const getLabelTemplateInfo: Handler<'getLabelTemplateInfo'> = (ctx) => {
  ctx.send(200, ctx.app.services.templates.labelTemplate(ctx.params.name).map(toLabelTemplate));
};
