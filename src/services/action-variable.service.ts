// Actions variables of organizations (Forgejo: services/actions/variables.go, routers/api/v1/org/action.go).
import type { ActionVariable } from '../db/action-variable.repository.ts';
import type { User } from '../db/entities.ts';
import { isValidVariableName, normaliseVariableValue, storedActionName } from '../domain/action-names.ts';
import { ownerScope } from '../domain/action-scope.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { BadRequestError, ConflictError, NameTakenError, NotFoundError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

function checkName(name: string): string {
  if (!isValidVariableName(name)) throw new BadRequestError('invalid variable name');
  return storedActionName(name);
}

/** Forgejo binds `value` as required, before the handler runs: an empty value is a binding failure. */
function checkValue(value: string): string {
  if (value === '') throw new BadRequestError('variable value must not be empty');
  return normaliseVariableValue(value);
}

function nameTaken(name: string): ConflictError {
  return new ConflictError(`variable name ${name} already exists`);
}

export class ActionVariableService {
  constructor(private readonly deps: ServiceDeps) {}

  private get variables() {
    return this.deps.repos.actionVariables;
  }

  private async find(org: User, name: string): Promise<ActionVariable> {
    const variable = await this.variables.find(ownerScope(org), storedActionName(name));
    if (!variable) throw new NotFoundError('variable not found');
    return variable;
  }

  async listOfOrg(org: User, page: ListOptions): Promise<Page<ActionVariable>> {
    return this.variables.list(ownerScope(org), page);
  }

  async getInOrg(org: User, name: string): Promise<ActionVariable> {
    return this.find(org, name);
  }

  /** Rule 14: a name that exists in any case is 409. */
  async createInOrg(org: User, name: string, value: string): Promise<void> {
    const data = checkValue(value);
    const stored = checkName(name);
    const scope = ownerScope(org);
    if (await this.variables.find(scope, stored)) throw nameTaken(stored);
    try {
      await this.variables.create(scope, stored, data);
    } catch (error) {
      if (error instanceof NameTakenError) throw nameTaken(stored);
      throw error;
    }
  }

  /** Rule 14: an absent variable is 404; the body's name defaults to the path's and may rename it. */
  async updateInOrg(org: User, name: string, changes: { name?: string; value: string }): Promise<void> {
    const data = checkValue(changes.value);
    const variable = await this.find(org, name);
    const stored = checkName(changes.name || name);
    const scope = ownerScope(org);
    if (stored !== variable.name && (await this.variables.find(scope, stored))) throw nameTaken(stored);
    try {
      await this.variables.update(scope, variable.id, { name: stored, data });
    } catch (error) {
      if (error instanceof NameTakenError) throw nameTaken(stored);
      throw error;
    }
  }

  async deleteInOrg(org: User, name: string): Promise<void> {
    checkName(name);
    const variable = await this.find(org, name);
    await this.variables.delete(ownerScope(org), variable.id);
  }
}
