// External login sources (LDAP, OAuth2, …) that accounts may authenticate against.
import type { DbClient, Models } from './prisma.ts';

export class LoginSourceRepository {
  constructor(private readonly client: DbClient) {}

  findById(id: number): Promise<Models.LoginSourceModel | null> {
    return this.client.loginSource.findUnique({ where: { id } });
  }
}
