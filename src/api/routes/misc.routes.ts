// Routes for misc. An operation bound to notImplemented() answers 501 until it is built.
import { reqFeature, reqToken } from '../guards.ts';
import { activitypubPerson, activitypubPersonInbox } from '../handlers/misc/activitypub.ts';
import { getApiDocs, getApiDocsAsset } from '../handlers/misc/api-docs.ts';
import { renderMarkdown, renderMarkdownRaw, renderMarkup } from '../handlers/misc/markup.ts';
import { getNodeInfo, getNodeInfoLinks } from '../handlers/misc/nodeinfo.ts';
import { getApiContract, getVersion, healthCheck } from '../handlers/misc/server.ts';
import { notImplemented, route, type RouteGroup } from '../route.ts';

export type MiscOperation =
  | 'activitypubPerson'
  | 'activitypubPersonInbox'
  | 'getApiContract'
  | 'getApiDocs'
  | 'getApiDocsAsset'
  | 'getGitignoreTemplateInfo'
  | 'getLabelTemplateInfo'
  | 'getLicenseTemplateInfo'
  | 'getNodeInfo'
  | 'getNodeInfoLinks'
  | 'getVersion'
  | 'healthCheck'
  | 'listGitignoresTemplates'
  | 'listLabelTemplates'
  | 'listLicenseTemplates'
  | 'renderMarkdown'
  | 'renderMarkdownRaw'
  | 'renderMarkup';

export const miscRoutes: RouteGroup<MiscOperation> = {
  activitypubPerson: route([reqFeature('federation')], activitypubPerson),
  activitypubPersonInbox: route([reqFeature('federation')], activitypubPersonInbox),
  getApiContract: route([], getApiContract),
  getApiDocs: route([], getApiDocs),
  getApiDocsAsset: route([], getApiDocsAsset),
  getGitignoreTemplateInfo: notImplemented(),
  getLabelTemplateInfo: notImplemented(),
  getLicenseTemplateInfo: notImplemented(),
  getNodeInfo: route([reqFeature('federation')], getNodeInfo),
  getNodeInfoLinks: route([reqFeature('federation')], getNodeInfoLinks),
  getVersion: route([], getVersion),
  healthCheck: route([], healthCheck),
  listGitignoresTemplates: notImplemented(),
  listLabelTemplates: notImplemented(),
  listLicenseTemplates: notImplemented(),
  renderMarkdown: route([reqToken()], renderMarkdown),
  renderMarkdownRaw: route([reqToken()], renderMarkdownRaw),
  renderMarkup: route([reqToken()], renderMarkup),
};
