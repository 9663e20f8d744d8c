// Actions variables of an owner (user or organization) or a repository (Forgejo: services/actions/variables.go).
import type { ActionVariable } from '../db/action-variable.repository.ts';
import { isValidVariableName, normaliseVariableValue, storedActionName } from '../domain/action-names.ts';
import type { ActionScope } from '../domain/action-scope.ts';
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

  private async find(scope: ActionScope, name: string): Promise<ActionVariable> {
    const variable = await this.variables.find(scope, storedActionName(name));
    if (!variable) throw new NotFoundError('variable not found');
    return variable;
  }

  async list(scope: ActionScope, page: ListOptions): Promise<Page<ActionVariable>> {
    return this.variables.list(scope, page);
  }

  async get(scope: ActionScope, name: string): Promise<ActionVariable> {
    return this.find(scope, name);
  }

  /** Rule 14: a name that exists in any case is 409. */
  async create(scope: ActionScope, name: string, value: string): Promise<void> {
    const data = checkValue(value);
    const stored = checkName(name);
    if (await this.variables.find(scope, stored)) throw nameTaken(stored);
    try {
      await this.variables.create(scope, stored, data);
    } catch (error) {
      if (error instanceof NameTakenError) throw nameTaken(stored);
      throw error;
    }
  }

  /** Rule 14: an absent variable is 404; the body's name defaults to the path's and may rename it. */
  async update(scope: ActionScope, name: string, changes: { name?: string; value: string }): Promise<void> {
    const data = checkValue(changes.value);
    const variable = await this.find(scope, name);
    const stored = checkName(changes.name || name);
    if (stored !== variable.name && (await this.variables.find(scope, stored))) throw nameTaken(stored);
    try {
      await this.variables.update(scope, variable.id, { name: stored, data });
    } catch (error) {
      if (error instanceof NameTakenError) throw nameTaken(stored);
      throw error;
    }
  }

  async delete(scope: ActionScope, name: string): Promise<void> {
    checkName(name);
    const variable = await this.find(scope, name);
    await this.variables.delete(scope, variable.id);
  }
}
