// Routes for the instance: health, version, contract and docs, templates, markup rendering, federation.
import { userIdAssignment } from '../assignment.ts';
import { reqFeature, reqToken } from '../guards.ts';
import { activitypubPerson, activitypubPersonInbox } from '../handlers/misc/activitypub.ts';
import { getApiDocs, getApiDocsAsset } from '../handlers/misc/api-docs.ts';
import { renderMarkdown, renderMarkdownRaw, renderMarkup } from '../handlers/misc/markup.ts';
import { getNodeInfo, getNodeInfoLinks } from '../handlers/misc/nodeinfo.ts';
import { getApiContract, getVersion, healthCheck } from '../handlers/misc/server.ts';
import * as settings from '../handlers/misc/settings.ts';
import {
  getGitignoreTemplateInfo,
  getLabelTemplateInfo,
  getLicenseTemplateInfo,
  listGitignoresTemplates,
  listLabelTemplates,
  listLicenseTemplates,
} from '../handlers/misc/template.ts';
import { route, type RouteGroup } from '../route.ts';

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
  | 'getGeneralAPISettings'
  | 'getGeneralRepositorySettings'
  | 'getGeneralUISettings'
  | 'healthCheck'
  | 'listGitignoresTemplates'
  | 'listLabelTemplates'
  | 'listLicenseTemplates'
  | 'renderMarkdown'
  | 'renderMarkdownRaw'
  | 'renderMarkup';

export const miscRoutes: RouteGroup<MiscOperation> = {
  activitypubPerson: route([reqFeature('federation'), userIdAssignment()], activitypubPerson),
  activitypubPersonInbox: route([reqFeature('federation'), userIdAssignment()], activitypubPersonInbox),
  getApiContract: route([], getApiContract),
  getApiDocs: route([], getApiDocs),
  getApiDocsAsset: route([], getApiDocsAsset),
  getGitignoreTemplateInfo: route([], getGitignoreTemplateInfo),
  getLabelTemplateInfo: route([], getLabelTemplateInfo),
  getLicenseTemplateInfo: route([], getLicenseTemplateInfo),
  getNodeInfo: route([reqFeature('federation')], getNodeInfo),
  getNodeInfoLinks: route([reqFeature('federation')], getNodeInfoLinks),
  getVersion: route([], getVersion),
  getGeneralAPISettings: route([], settings.getGeneralAPISettings),
  getGeneralRepositorySettings: route([], settings.getGeneralRepositorySettings),
  getGeneralUISettings: route([], settings.getGeneralUISettings),
  healthCheck: route([], healthCheck),
  listGitignoresTemplates: route([], listGitignoresTemplates),
  listLabelTemplates: route([], listLabelTemplates),
  listLicenseTemplates: route([], listLicenseTemplates),
  renderMarkdown: route([reqToken()], renderMarkdown),
  renderMarkdownRaw: route([reqToken()], renderMarkdownRaw),
  renderMarkup: route([reqToken()], renderMarkup),
};
