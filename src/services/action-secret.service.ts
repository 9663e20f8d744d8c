// Actions secrets of organizations (Forgejo: services/secrets/*, routers/api/v1/org/action.go). Values go in and
// are never given back: the list shows names and creation times, and no error message repeats a value.
import type { ActionSecret } from '../db/action-secret.repository.ts';
import type { User } from '../db/entities.ts';
import { isValidSecretName, storedActionName } from '../domain/action-names.ts';
import { ownerScope } from '../domain/action-scope.ts';
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

  async listOfOrg(org: User, page: ListOptions): Promise<Page<ActionSecret>> {
    return this.secrets.list(ownerScope(org), page);
  }

  /** Rule 13: `created` when the secret is new, `replaced` when one of that name (in any case) was there. */
  async putInOrg(org: User, name: string, value: string): Promise<'created' | 'replaced'> {
    // Forgejo binds `data` as required, before the handler looks at the name: an empty value is a binding failure.
    if (value === '') throw new BadRequestError('secret data must not be empty');
    const stored = checkName(name);
    const scope = ownerScope(org);
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

  async deleteInOrg(org: User, name: string): Promise<void> {
    const stored = checkName(name);
    if (!(await this.secrets.delete(ownerScope(org), stored)))
      throw new NotFoundError(`secret was not found [name: ${stored}]`);
  }
}
