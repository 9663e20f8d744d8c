// E-mail addresses of individual users, for administrators (Forgejo: routers/api/v1/admin/email.go,
// models/user/email_address.go SearchEmails).
import type { Models, Prisma } from '../db/prisma.ts';
import type { ListOptions } from '../http/pagination.ts';
import type { ServiceDeps } from './index.ts';

export type EmailWithOwner = Models.EmailAddressModel & { user: { name: string } };

export class UserEmailService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Every address of individual users, by address; `keyword` matches user name, full name or address. */
  async search(keyword: string, page: ListOptions): Promise<{ emails: EmailWithOwner[]; total: number }> {
    const { prisma, provider } = this.deps.db;
    const where: Prisma.EmailAddressWhereInput = { user: { type: 0 } };
    const q = keyword.trim().toLowerCase();
    if (q !== '') {
      // Full names have no lower-cased copy: PostgreSQL needs the insensitive mode, SQLite's LIKE already is.
      const fullName = provider === 'postgresql' ? { contains: keyword.trim(), mode: 'insensitive' } : { contains: keyword.trim() };
      where.OR = [
        { lowerEmail: { contains: q } },
        { user: { lowerName: { contains: q } } },
        { user: { fullName: fullName as Prisma.StringFilter } },
      ];
    }
    const [emails, total] = await Promise.all([
      prisma.emailAddress.findMany({
        where,
        include: { user: { select: { name: true } } },
        orderBy: [{ lowerEmail: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      prisma.emailAddress.count({ where }),
    ]);
    return { emails, total };
  }
}
