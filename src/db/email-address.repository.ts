// E-mail addresses of users; an address (lower-cased) belongs to one user only.
import { translated } from '../infra/database/errors.ts';
import type { DbClient, Models, Prisma } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export type EmailWithOwner = Models.EmailAddressModel & { user: { name: string } };

export class EmailAddressRepository {
  constructor(
    private readonly client: DbClient,
    /** Full names have no lower-cased copy: PostgreSQL needs the insensitive mode, SQLite's LIKE already is. */
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  findByAddress(email: string): Promise<Models.EmailAddressModel | null> {
    return this.client.emailAddress.findUnique({ where: { lowerEmail: email.toLowerCase() } });
  }

  /** The address becomes the user's primary one: an existing address of the user is promoted, a new one added. */
  async makePrimary(userId: number, email: string): Promise<void> {
    const lowerEmail = email.toLowerCase();
    await this.client.emailAddress.updateMany({
      where: { userId, isPrimary: true, lowerEmail: { not: lowerEmail } },
      data: { isPrimary: false },
    });
    await translated({ taken: 'e-mail address' }, () =>
      this.client.emailAddress.upsert({
        where: { lowerEmail },
        create: { userId, email, lowerEmail, isPrimary: true, isActivated: true },
        update: { email, isPrimary: true, isActivated: true },
      }),
    );
  }

  /** Addresses of individual users by address; a keyword matches the address, user name or full name. */
  async searchOfIndividuals(
    keyword: string,
    page: { skip: number; limit: number },
  ): Promise<{ emails: EmailWithOwner[]; total: number }> {
    const where: Prisma.EmailAddressWhereInput = { user: { type: 0 } };
    const trimmed = keyword.trim();
    if (trimmed !== '') {
      const lower = trimmed.toLowerCase();
      const fullName =
        this.provider === 'postgresql' ? { contains: trimmed, mode: 'insensitive' } : { contains: trimmed };
      where.OR = [
        { lowerEmail: { contains: lower } },
        { user: { lowerName: { contains: lower } } },
        { user: { fullName: fullName as Prisma.StringFilter } },
      ];
    }
    const [emails, total] = await Promise.all([
      this.client.emailAddress.findMany({
        where,
        include: { user: { select: { name: true } } },
        orderBy: [{ lowerEmail: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.emailAddress.count({ where }),
    ]);
    return { emails, total };
  }

  /** A user's addresses, the primary one first. */
  listOfUser(userId: number): Promise<EmailWithOwner[]> {
    return this.client.emailAddress.findMany({
      where: { userId },
      include: { user: { select: { name: true } } },
      orderBy: [{ isPrimary: 'desc' }, { id: 'asc' }],
    });
  }

  /** Adds addresses to a user (activated: Anvil sends no confirmation mail); a taken address is NameTakenError. */
  async addToUser(userId: number, emails: readonly string[]): Promise<void> {
    for (const email of emails) {
      await translated({ taken: 'e-mail address' }, () =>
        this.client.emailAddress.create({
          data: { userId, email, lowerEmail: email.toLowerCase(), isActivated: true },
        }),
      );
    }
  }

  /** Removes a user's non-primary addresses; how many were removed. */
  async removeFromUser(userId: number, emails: readonly string[]): Promise<number> {
    const lowerEmails = emails.map((email) => email.toLowerCase());
    const { count } = await this.client.emailAddress.deleteMany({
      where: { userId, isPrimary: false, lowerEmail: { in: lowerEmails } },
    });
    return count;
  }
}
