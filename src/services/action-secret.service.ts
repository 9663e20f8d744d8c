// Actions secrets of an owner (user or organization) or a repository (Forgejo: services/secrets/*). Values go in and
// are never given back: the list shows names and creation times, and no error message repeats a value.
import type { ActionSecret } from '../db/action-secret.repository.ts';
import { isValidSecretName, storedActionName } from '../domain/action-names.ts';
import type { ActionScope } from '../domain/action-scope.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { BadRequestError, NameTakenError, NotFoundError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

function checkName(name: string): string {
  if (!isValidSecretName(name)) throw new BadRequestError('invalid secret name');
  return storedActionName(name);
}

export class ActionSecretService {
  constructor(private readonly deps: ServiceDeps) {}

  private get secrets() {
    return this.deps.repos.actionSecrets;
  }

  async list(scope: ActionScope, page: ListOptions): Promise<Page<ActionSecret>> {
    return this.secrets.list(scope, page);
  }

  /** Rule 13: `created` when the secret is new, `replaced` when one of that name (in any case) was there. */
  async put(scope: ActionScope, name: string, value: string): Promise<'created' | 'replaced'> {
    // Forgejo binds `data` as required, before the handler looks at the name: an empty value is a binding failure.
    if (value === '') throw new BadRequestError('secret data must not be empty');
    const stored = checkName(name);
    const existing = await this.secrets.find(scope, stored);
    if (existing) {
      await this.secrets.replaceValue(scope, existing, value);
      return 'replaced';
    }
    try {
      await this.secrets.create(scope, stored, value);
      return 'created';
    } catch (error) {
      if (!(error instanceof NameTakenError)) throw error;
      // Created by a concurrent request since the lookup: this one replaces it.
      const raced = await this.secrets.find(scope, stored);
      if (!raced) throw error;
      await this.secrets.replaceValue(scope, raced, value);
      return 'replaced';
    }
  }

  async delete(scope: ActionScope, name: string): Promise<void> {
    const stored = checkName(name);
    if (!(await this.secrets.delete(scope, stored))) throw new NotFoundError(`secret was not found [name: ${stored}]`);
  }
}
