// E-mail addresses of individual users, for administrators (Forgejo: routers/api/v1/admin/email.go,
// models/user/email_address.go SearchEmails).
import type { EmailAddressRepository, EmailWithOwner } from '../db/email-address.repository.ts';
import type { User } from '../db/entities.ts';
import { emailDomainAllowed, isValidEmail } from '../domain/email.ts';
import { NameTakenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';

export class UserEmailService {
  private readonly emails: EmailAddressRepository;

  constructor(private readonly deps: ServiceDeps) {
    this.emails = deps.repos.emails;
  }

  /** Every address of individual users, by address; `keyword` matches user name, full name or address. */
  async search(keyword: string, page: ListOptions): Promise<{ emails: EmailWithOwner[]; total: number }> {
    return this.emails.searchOfIndividuals(keyword, page);
  }

  /** The caller's own addresses (Forgejo: routers/api/v1/user/email.go). */
  listOwn(user: User): Promise<EmailWithOwner[]> {
    return this.emails.listOfUser(user.id);
  }

  /** Adds addresses to the caller, all or none: each must be valid, allowed and not in use (422). */
  async add(user: User, addresses: readonly string[]): Promise<EmailWithOwner[]> {
    const unique = [...new Map(addresses.map((email) => [email.trim().toLowerCase(), email.trim()])).values()];
    if (unique.length === 0) throw new ValidationError('Email list empty');
    const { EMAIL_DOMAIN_ALLOWLIST, EMAIL_DOMAIN_BLOCKLIST } = this.deps.settings.service;
    for (const email of unique) {
      if (!isValidEmail(email)) throw new ValidationError(`Email address is invalid [email: ${email}]`);
      if (!emailDomainAllowed(email, EMAIL_DOMAIN_ALLOWLIST, EMAIL_DOMAIN_BLOCKLIST))
        throw new ValidationError(`Email address is not allowed [email: ${email}]`);
      if (await this.emails.findByAddress(email)) throw new ValidationError(`Email address has been used: ${email}`);
    }
    try {
      await this.deps.transactions.run((tx) => tx.emails.addToUser(user.id, unique));
    } catch (error) {
      if (error instanceof NameTakenError) throw new ValidationError('Email address has been used');
      throw error;
    }
    const lower = new Set(unique.map((email) => email.toLowerCase()));
    return (await this.emails.listOfUser(user.id)).filter((email) => lower.has(email.lowerEmail));
  }

  /** Removes addresses of the caller; 404 unless every one is a non-primary address of theirs. */
  async remove(user: User, addresses: readonly string[]): Promise<void> {
    const unique = [...new Set(addresses.map((email) => email.trim().toLowerCase()))];
    if (unique.length === 0) return;
    await this.deps.transactions.run(async (tx) => {
      const removed = await tx.emails.removeFromUser(user.id, unique);
      // Throwing rolls back the addresses that were found.
      if (removed !== unique.length) throw new NotFoundError('email address not found');
    });
  }
}
