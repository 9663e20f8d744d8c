// E-mail addresses of individual users, for administrators (Forgejo: routers/api/v1/admin/email.go,
// models/user/email_address.go SearchEmails).
import type { EmailAddressRepository, EmailWithOwner } from '../db/email-address.repository.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';


export class UserEmailService {
  private readonly emails: EmailAddressRepository;

  constructor(deps: ServiceDeps) {
    this.emails = deps.repos.emails;
  }

  /** Every address of individual users, by address; `keyword` matches user name, full name or address. */
  async search(keyword: string, page: ListOptions): Promise<{ emails: EmailWithOwner[]; total: number }> {
    return this.emails.searchOfIndividuals(keyword, page);
  }
}
