// Runner registration tokens (Forgejo: routers/api/v1/shared/runners.go, models/actions/runner_token.go): the
// newest token of a scope is handed out while it is active; a new one is made when there is none or it was reset.
import { randomAlphanumeric } from '../crypto/random-alphanumeric.ts';
import type { ActionScope } from '../domain/action-scope.ts';
import type { ServiceDeps } from './service-deps.ts';

const TOKEN_LENGTH = 40;

export class RunnerTokenService {
  constructor(private readonly deps: ServiceDeps) {}

  async registrationToken(scope: ActionScope): Promise<string> {
    const latest = await this.deps.repos.runnerTokens.latest(scope);
    if (latest?.isActive) return latest.token;
    return (await this.deps.repos.runnerTokens.create(scope, randomAlphanumeric(TOKEN_LENGTH))).token;
  }
}
