// Routes for misc. An operation bound to notImplemented() answers 501 until it is built.
import { getApiContract, getVersion, healthCheck } from '../handlers/misc/server.ts';
import {
  getGitignoreTemplateInfo, getLabelTemplateInfo, getLicenseTemplateInfo, listGitignoresTemplates, listLabelTemplates, listLicenseTemplates,
} from '../handlers/misc/template.ts';
import { notImplemented, route, type RouteGroup } from '../route.ts';

export type MiscOperation =
  | 'activitypubPerson'
  | 'activitypubPersonInbox'
  | 'getApiContract'
  | 'getGitignoreTemplateInfo'
  | 'getLabelTemplateInfo'
  | 'getLicenseTemplateInfo'
  | 'getNodeInfo'
  | 'getVersion'
  | 'healthCheck'
  | 'listGitignoresTemplates'
  | 'listLabelTemplates'
  | 'listLicenseTemplates'
  | 'renderMarkdown'
  | 'renderMarkdownRaw'
  | 'renderMarkup';

export const miscRoutes: RouteGroup<MiscOperation> = {
  activitypubPerson: notImplemented(),
  activitypubPersonInbox: notImplemented(),
  getApiContract: route([], getApiContract),
  getGitignoreTemplateInfo: route([], getGitignoreTemplateInfo),
  getLabelTemplateInfo: route([], getLabelTemplateInfo),
  getLicenseTemplateInfo: route([], getLicenseTemplateInfo),
  getNodeInfo: notImplemented(),
  getVersion: route([], getVersion),
  healthCheck: route([], healthCheck),
  listGitignoresTemplates: route([], listGitignoresTemplates),
  listLabelTemplates: route([], listLabelTemplates),
  listLicenseTemplates: route([], listLicenseTemplates),
  renderMarkdown: notImplemented(),
  renderMarkdownRaw: notImplemented(),
  renderMarkup: notImplemented(),
};
