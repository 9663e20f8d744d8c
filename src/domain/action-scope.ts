// Where an Actions secret, variable or runner token belongs (Forgejo: models/secret/secret.go): an owner (user or
// organization) with repository 0, a repository with owner 0, or, for runner tokens only, the instance (both 0).

export interface ActionScope {
  readonly ownerId: number;
  readonly repoId: number;
}

export const INSTANCE_SCOPE: ActionScope = { ownerId: 0, repoId: 0 };

export function ownerScope(owner: { id: number }): ActionScope {
  return { ownerId: owner.id, repoId: 0 };
}

export function repoScope(repo: { id: number }): ActionScope {
  return { ownerId: 0, repoId: repo.id };
}
