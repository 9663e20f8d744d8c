// Individual user accounts: creation and lookup. Admin user management rules build on this.
import type { User } from '../db/prisma.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { isValidEmail } from '../domain/email.ts';
import { ownerNameProblem } from '../domain/names.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../errors.ts';
import type { ServiceDeps } from './index.ts';

export interface NewUser {
  username: string;
  email: string;
  password: string;
  fullName?: string;
  isAdmin?: boolean;
  mustChangePassword?: boolean;
  loginName?: string;
}

export class UserService {
  constructor(private readonly deps: ServiceDeps) {}

  /** An individual user by name (case-insensitive); 404 when there is none. */
  async getByName(name: string): Promise<User> {
    const user = await this.deps.db.hot.userByLowerName(name.toLowerCase());
    if (!user || user.type !== 0) throw new NotFoundError(`user does not exist [name: ${name}]`);
    return user;
  }

  async create(input: NewUser): Promise<User> {
    const problem = ownerNameProblem(input.username);
    if (problem === 'reserved') throw new ValidationError(`name is reserved [name: ${input.username}]`);
    if (problem) throw new ValidationError(`invalid username [name: ${input.username}]`);
    if (!isValidEmail(input.email)) throw new ValidationError(`e-mail invalid [email: ${input.email}]`);
    if (input.password.length < this.deps.settings.security.MIN_PASSWORD_LENGTH) throw new BadRequestError('PasswordIsRequired');
    const passwordHash = await this.deps.passwords.hash(input.password);
    try {
      return await this.deps.db.prisma.user.create({
        data: {
          name: input.username,
          lowerName: input.username.toLowerCase(),
          fullName: input.fullName ?? '',
          email: input.email,
          passwordHash,
          isAdmin: input.isAdmin ?? false,
          mustChangePassword: input.mustChangePassword ?? true,
          loginName: input.loginName ?? input.username,
          emails: { create: { email: input.email, lowerEmail: input.email.toLowerCase(), isPrimary: true } },
        },
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        const emailTaken = await this.deps.db.prisma.emailAddress.findUnique({ where: { lowerEmail: input.email.toLowerCase() } });
        throw new ValidationError(emailTaken ? `e-mail already in use [email: ${input.email}]` : `user already exists [name: ${input.username}]`);
      }
      throw error;
    }
  }
}
