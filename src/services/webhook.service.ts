// Webhook configurations of organizations and the instance (system and default hooks) (Forgejo:
// routers/api/v1/utils/hook.go). Events are queued by hook-events.service.ts, sent by hook-delivery.service.ts.
import type { User } from '../db/entities.ts';
import type { HookRowChanges, Webhook, WebhookRepository } from '../db/webhook.repository.ts';
import {
  DELIVERED_HOOK_TYPES,
  hookContentTypeNumber,
  hookEventsFromList,
  isHookType,
  isValidHookUrl,
  isValidSlackChannel,
} from '../domain/webhook.ts';
import { branchFilterProblem } from '../domain/hook-event.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewHook {
  type: string;
  config: Record<string, string>;
  events?: string[];
  active?: boolean;
  branch_filter?: string;
  authorization_header?: string;
}

export interface HookChanges {
  config?: Record<string, string>;
  events?: string[];
  active?: boolean;
  branch_filter?: string;
  authorization_header?: string;
}

/** Where a hook belongs: a repository (ownerId 0), an organization (repoId 0), or the instance (both 0). */
type HookScope = { ownerId: number; repoId: number; instance: boolean };

function checkedBranchFilter(filter: string | undefined): string {
  const problem = branchFilterProblem(filter ?? '');
  if (problem) throw new ValidationError(problem);
  return filter ?? '';
}

function slackMeta(config: Record<string, string>, channel: string): string {
  return JSON.stringify({
    channel,
    username: config.username ?? '',
    icon_url: config.icon_url ?? '',
    color: config.color ?? '',
  });
}

export class WebhookService {
  private readonly hooks: WebhookRepository;

  constructor(private readonly deps: ServiceDeps) {
    this.hooks = deps.repos.webhooks;
  }

  private orgScope(org: User): HookScope {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) throw new ForbiddenError('webhooks disabled by administrator');
    return { ownerId: org.id, repoId: 0, instance: false };
  }

  private repoScope(repo: { id: number }): HookScope {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) throw new ForbiddenError('webhooks disabled by administrator');
    return { ownerId: 0, repoId: repo.id, instance: false };
  }

  listRepo(repo: { id: number }, page: ListOptions): Promise<Page<Webhook>> {
    return this.hooks.list(this.repoScope(repo), page);
  }

  createRepo(repo: { id: number }, input: NewHook): Promise<Webhook> {
    return this.createIn(this.repoScope(repo), input);
  }

  getRepo(repo: { id: number }, id: number): Promise<Webhook> {
    return this.find(this.repoScope(repo), id);
  }

  editRepo(repo: { id: number }, id: number, changes: HookChanges): Promise<Webhook> {
    return this.editIn(this.repoScope(repo), id, changes);
  }

  async deleteRepo(repo: { id: number }, id: number): Promise<void> {
    const scope = this.repoScope(repo);
    await this.hooks.delete(scope, (await this.find(scope, id)).id);
  }

  private static readonly INSTANCE: HookScope = { ownerId: 0, repoId: 0, instance: true };

  private async find(scope: HookScope, id: number): Promise<Webhook> {
    const hook = await this.hooks.find(scope, id);
    if (!hook) throw new NotFoundError();
    return hook;
  }

  private async createIn(scope: HookScope, input: NewHook): Promise<Webhook> {
    const config = input.config ?? {};
    if (!isHookType(input.type)) throw new ValidationError(`Invalid hook type: ${input.type}`);
    if (!DELIVERED_HOOK_TYPES.includes(input.type))
      throw new ValidationError(`hook type ${input.type} is not supported`);
    for (const name of ['url', 'content_type']) {
      if (config[name] === undefined) throw new ValidationError(`Missing config option: ${name}`);
    }
    if (!isValidHookUrl(config.url)) throw new ValidationError(`Invalid url: ${config.url}`);
    const contentType = hookContentTypeNumber(config.content_type);
    if (contentType === 0) throw new ValidationError('Invalid content type');
    let isSystemWebhook = false;
    if (scope.instance && config.is_system_webhook !== undefined && config.is_system_webhook !== '') {
      const parsed = /^(1|t|true)$/i.test(config.is_system_webhook)
        ? true
        : /^(0|f|false)$/i.test(config.is_system_webhook)
          ? false
          : null;
      if (parsed === null) throw new ValidationError('Invalid is_system_webhook value');
      isSystemWebhook = parsed;
    }
    let meta = '{}';
    if (input.type === 'slack') {
      if (config.channel === undefined) throw new ValidationError('Missing config option: channel');
      const channel = config.channel.trim();
      if (!isValidSlackChannel(channel)) throw new ValidationError('Invalid slack channel name');
      meta = slackMeta(config, channel);
    }
    const branchFilter = checkedBranchFilter(input.branch_filter);
    return this.hooks.create(scope, {
      isSystemWebhook,
      type: input.type,
      url: config.url,
      httpMethod: 'POST',
      contentType,
      secret: config.secret ?? '',
      events: JSON.stringify(hookEventsFromList(input.events, branchFilter)),
      meta,
      branchFilter,
      authorization: input.authorization_header ?? '',
      isActive: input.active ?? false,
    });
  }

  /** Edits as Forgejo does: config keys present change; events are replaced (empty means push). */
  private async editIn(scope: HookScope, id: number, changes: HookChanges): Promise<Webhook> {
    const hook = await this.find(scope, id);
    const data: HookRowChanges = {};
    const config = changes.config;
    if (config) {
      if (config.url !== undefined) {
        if (!isValidHookUrl(config.url)) throw new ValidationError(`Invalid url: ${config.url}`);
        data.url = config.url;
      }
      if (config.content_type !== undefined) {
        const contentType = hookContentTypeNumber(config.content_type);
        if (contentType === 0) throw new ValidationError('Invalid content type');
        data.contentType = contentType;
      }
      if (config.secret !== undefined) data.secret = config.secret;
      if (hook.type === 'slack' && config.channel !== undefined) {
        const channel = config.channel.trim();
        if (!isValidSlackChannel(channel)) throw new ValidationError('Invalid slack channel name');
        data.meta = slackMeta(config, channel);
      }
    }
    const branchFilter = checkedBranchFilter(changes.branch_filter);
    data.events = JSON.stringify(hookEventsFromList(changes.events, branchFilter));
    data.branchFilter = branchFilter;
    data.authorization = changes.authorization_header ?? '';
    if (changes.active !== undefined) data.isActive = changes.active;
    return this.hooks.update(scope, hook.id, data);
  }

  async listOrg(org: User, page: ListOptions): Promise<{ org: User } & Page<Webhook>> {
    const scope = this.orgScope(org);
    return { org, ...(await this.hooks.list(scope, page)) };
  }

  async createOrg(org: User, input: NewHook): Promise<{ org: User; hook: Webhook }> {
    const scope = this.orgScope(org);
    return { org, hook: await this.createIn(scope, input) };
  }

  async getOrg(org: User, id: number): Promise<{ org: User; hook: Webhook }> {
    const scope = this.orgScope(org);
    return { org, hook: await this.find(scope, id) };
  }

  async editOrg(org: User, id: number, changes: HookChanges): Promise<{ org: User; hook: Webhook }> {
    const scope = this.orgScope(org);
    return { org, hook: await this.editIn(scope, id, changes) };
  }

  async deleteOrg(org: User, id: number): Promise<void> {
    const scope = this.orgScope(org);
    await this.hooks.delete(scope, (await this.find(scope, id)).id);
  }

  /** GET /admin/hooks: system hooks only, all of them (Forgejo does not page this list). */
  async listSystem(): Promise<Webhook[]> {
    return this.hooks.listSystemHooks();
  }

  /** A system hook when `config.is_system_webhook` is true, else a default hook copied into new repositories. */
  async createInstance(input: NewHook): Promise<Webhook> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) throw new ForbiddenError('webhooks disabled by administrator');
    return this.createIn(WebhookService.INSTANCE, input);
  }

  async getInstance(id: number): Promise<Webhook> {
    return this.find(WebhookService.INSTANCE, id);
  }

  /** Forgejo answers 500 for a missing id here; Anvil 404 like get and delete. */
  async editInstance(id: number, changes: HookChanges): Promise<Webhook> {
    return this.editIn(WebhookService.INSTANCE, id, changes);
  }

  async deleteInstance(id: number): Promise<void> {
    await this.hooks.delete(WebhookService.INSTANCE, (await this.getInstance(id)).id);
  }
}
