// Individual user accounts: creation, lookup and the administration rules (Forgejo: routers/api/v1/admin/user.go,
// services/user). Names are unique case-insensitively across users and organizations (User.lowerName).
import type { User, UserChangesRow } from '../db/entities.ts';
import type { UserListOrder } from '../db/hot-queries.ts';
import type { EmailAddressRepository } from '../db/email-address.repository.ts';
import type { LoginSourceRepository } from '../db/login-source.repository.ts';
import type { UserRepository } from '../db/user.repository.ts';
import { Visibility } from '../domain/access/modes.ts';
import { emailDomainAllowed, isValidEmail } from '../domain/email.ts';
import { hasLocalPassword, LoginType } from '../domain/login.ts';
import { ownerNameProblem } from '../domain/names.ts';
import { passwordProblem } from '../domain/password.ts';
import { BadRequestError, NameTakenError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { removeUnreferencedBlobs } from '../packages/core/remove-blobs.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { MailerService } from './mailer.service.ts';
import type { OwnerStorageService } from './owner-storage.service.ts';
import type { RepositoryEditService } from './repository-edit.service.ts';
import { isIndividual } from '../domain/access/owner-visibility.ts';
import { userNotFound } from '../domain/name-not-found.ts';

export interface NewUser {
  username: string;
  email: string;
  password: string;
  fullName?: string;
  isAdmin?: boolean;
  mustChangePassword?: boolean;
  loginName?: string;
  sourceId?: number;
  restricted?: boolean;
  /** public, limited or private; empty or absent means [service] DEFAULT_USER_VISIBILITY. */
  visibility?: string;
  /** Back-dates the account: sets both the creation and the update time. */
  createdAt?: Date;
  /** Queue a registration notice to the new user (rule 7). */
  sendNotify?: boolean;
}

/** Fields an administrator may change; absent fields stay as they are. */
export interface UserChanges {
  sourceId?: number;
  loginName?: string;
  password?: string;
  mustChangePassword?: boolean;
  prohibitLogin?: boolean;
  email?: string;
  fullName?: string;
  website?: string;
  location?: string;
  description?: string;
  pronouns?: string;
  active?: boolean;
  admin?: boolean;
  visibility?: string;
  allowGitHook?: boolean;
  allowImportLocal?: boolean;
  maxRepoCreation?: number;
  allowCreateOrganization?: boolean;
  restricted?: boolean;
}

export type UserSort = UserListOrder;

export interface UserSearch {
  sourceId?: number;
  loginName?: string;
  sort?: UserSort;
}

/** A result with an optional warning for the X-Service-Warning header. */
export interface WithWarning<T> {
  value: T;
  warning: string | null;
}

export class UserService {
  private readonly users: UserRepository;
  private readonly emails: EmailAddressRepository;
  private readonly loginSources: LoginSourceRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly repoEdits: RepositoryEditService,
    private readonly ownerStorage: OwnerStorageService,
    private readonly mailer: MailerService,
  ) {
    this.users = deps.repos.users;
    this.emails = deps.repos.emails;
    this.loginSources = deps.repos.loginSources;
  }

  /** An individual user by name (case-insensitive); 404 when there is none. */
  async getByName(name: string): Promise<User> {
    const user = await this.deps.repos.users.byLowerName(name.toLowerCase());
    if (!user || !isIndividual(user)) throw userNotFound(name);
    return user;
  }

  /** A user or an organization by name (case-insensitive), or null. */
  byName(name: string): Promise<User | null> {
    return this.users.byLowerName(name.toLowerCase());
  }

  /** A user or an organization by id, or null. */
  byId(id: number): Promise<User | null> {
    return this.users.byId(id);
  }

  /** The user or organization that used to be called `name`, if it was renamed. */
  async renamedTo(name: string): Promise<User | null> {
    const targetId = await this.users.findRedirectTarget(name.toLowerCase());
    if (targetId === null) return null;
    return this.deps.repos.users.byId(targetId);
  }

  /** Creates an active account; used by the admin API, the CLI and tests. */
  async create(input: NewUser): Promise<User> {
    return (await this.createWithWarning(input)).value;
  }

  async createWithWarning(input: NewUser): Promise<WithWarning<User>> {
    const { settings } = this.deps;
    const loginType = await this.loginTypeOf(input.sourceId ?? 0);
    if (loginType === LoginType.plain) this.checkPassword(input.password);
    this.checkName(input.username);
    if (!isValidEmail(input.email)) throw new ValidationError(`e-mail invalid [email: ${input.email}]`);
    const visibility = this.parseVisibility(input.visibility) ?? Visibility[settings.service.DEFAULT_USER_VISIBILITY];

    const passwordHash = input.password ? await this.deps.passwords.hash(input.password) : '';
    const lowerName = input.username.toLowerCase();
    let user: User;
    try {
      user = await this.users.createWithPrimaryEmail({
        name: input.username,
        lowerName,
        fullName: input.fullName ?? '',
        email: input.email,
        passwordHash,
        isAdmin: input.isAdmin ?? false,
        isActive: true,
        isRestricted: input.restricted ?? false,
        visibility,
        allowCreateOrganization: settings.service.DEFAULT_ALLOW_CREATE_ORGANIZATION,
        mustChangePassword: input.mustChangePassword ?? true,
        loginType,
        loginSourceId: input.sourceId ?? 0,
        loginName: input.loginName || input.username,
        ...(input.createdAt ? { createdAt: input.createdAt, updatedAt: input.createdAt } : {}),
      });
    } catch (error) {
      if (!(error instanceof NameTakenError)) throw error;
      const nameTaken = await this.users.existsWithLowerName(lowerName);
      throw new ValidationError(
        nameTaken ? `user already exists [name: ${input.username}]` : `e-mail already in use [email: ${input.email}]`,
      );
    }
    // The name names a real account again: an old redirect from it would never be followed.
    await this.users.deleteRedirectFrom(lowerName);
    if (input.sendNotify) this.mailer.queueRegistrationNotice(user);
    return { value: user, warning: this.emailDomainWarning(input.email) };
  }

  /** Applies the present fields (admin edit). */
  async edit(target: User, changes: UserChanges): Promise<WithWarning<User>> {
    if ((changes.sourceId === undefined) !== (changes.loginName === undefined)) {
      throw new ValidationError('source_id and login_name must be specified together');
    }
    const visibility = this.parseVisibility(changes.visibility);
    const data: UserChangesRow = {};
    if (changes.sourceId !== undefined) {
      data.loginType = await this.loginTypeOf(changes.sourceId);
      data.loginSourceId = changes.sourceId;
      data.loginName = changes.loginName;
    }
    if (changes.password) {
      if (hasLocalPassword((data.loginType as number | undefined) ?? target.loginType))
        this.checkPassword(changes.password);
      data.passwordHash = await this.deps.passwords.hash(changes.password);
    }
    const email = changes.email;
    if (email !== undefined) {
      if (!isValidEmail(email)) throw new BadRequestError(`e-mail invalid [email: ${email}]`);
      const existing = await this.emails.findByAddress(email);
      if (existing && existing.userId !== target.id)
        throw new BadRequestError(`e-mail already in use [email: ${email}]`);
      data.email = email;
    }
    const copy = <K extends keyof UserChanges, F extends keyof UserChangesRow>(from: K, to: F) => {
      if (changes[from] !== undefined) (data as Record<string, unknown>)[to] = changes[from];
    };
    copy('mustChangePassword', 'mustChangePassword');
    copy('prohibitLogin', 'prohibitLogin');
    copy('fullName', 'fullName');
    copy('website', 'website');
    copy('location', 'location');
    copy('description', 'description');
    copy('pronouns', 'pronouns');
    copy('active', 'isActive');
    copy('admin', 'isAdmin');
    copy('allowGitHook', 'allowGitHook');
    copy('allowImportLocal', 'allowImportLocal');
    copy('maxRepoCreation', 'maxRepoCreation');
    copy('allowCreateOrganization', 'allowCreateOrganization');
    copy('restricted', 'isRestricted');
    if (visibility !== undefined) data.visibility = visibility;
    data.updatedAt = new Date();

    const user = await this.deps.transactions.run(async (repos) => {
      const users = repos.users;
      if (changes.admin === false && target.isAdmin && (await this.isLastAdmin(users, target))) {
        throw new BadRequestError('can not remove the last admin user');
      }
      if (email !== undefined) await repos.emails.makePrimary(target.id, email);
      return users.update(target.id, data);
    });
    return { value: user, warning: email !== undefined ? this.emailDomainWarning(email) : null };
  }

  /**
   * Deletes an individual account. Without `purge` it must own nothing and belong to no organization; with
   * `purge` its repositories (directories included), packages and memberships go too, and organizations it
   * was the last owner of are deleted (Forgejo: services/user DeleteUser).
   */
  async delete(doer: User, target: User, purge: boolean): Promise<void> {
    if (!isIndividual(target)) throw new ValidationError(`${target.name} is an organization not a user`);
    if (target.id === doer.id) throw new ValidationError('you cannot delete yourself');

    const removedOwners = await this.deps.transactions.run(async (repos) => {
      const users = repos.users;
      const ownerPurge = repos.ownerPurge;
      await ownerPurge.lockOwner(target.id);
      if (target.isAdmin && (await this.isLastAdmin(users, target)))
        throw new ValidationError('can not delete the last admin user');
      if (!purge) {
        const [{ repositories, packages }, memberships] = await Promise.all([
          ownerPurge.countOwnedData(target.id),
          repos.orgMembers.countByUser(target.id),
        ]);
        if (repositories > 0) throw new ValidationError(`user still has ownership of repositories [uid: ${target.id}]`);
        if (memberships > 0)
          throw new ValidationError(`user still has membership of organizations [uid: ${target.id}]`);
        if (packages > 0) throw new ValidationError(`user still has ownership of packages [uid: ${target.id}]`);
      }
      const orphanedOrgs = purge ? await ownerPurge.findOrgsOnlyOwnedBy(target.id) : [];
      for (const org of orphanedOrgs) await ownerPurge.lockOwner(org.id);
      const owners = [target, ...orphanedOrgs];
      const { orphanBlobHashes } = await ownerPurge.purgeOwnedData(owners.map((owner) => owner.id));
      await ownerPurge.deletePersonalRows(target.id);
      await users.deleteRedirectsTo(orphanedOrgs.map((org) => org.id));
      await users.deleteByIds(owners.map((owner) => owner.id));
      return { owners, orphanBlobHashes };
    });
    await this.removeFiles(removedOwners.owners, removedOwners.orphanBlobHashes);
  }

  /** Renames an individual account, leaving a redirect from the old name (Forgejo: services/user RenameUser). */
  async rename(target: User, newName: string): Promise<void> {
    if (!isIndividual(target)) throw new ValidationError(`${target.name} is an organization not a user`);
    if (newName === target.name) return;
    this.checkName(newName);
    const newLower = newName.toLowerCase();
    let moveFolderBack = () => {};
    try {
      await this.deps.transactions.run(async (repos) => {
        const users = repos.users;
        await users.rename(target.id, newName);
        if (newLower !== target.lowerName) {
          await users.deleteRedirectFrom(newLower);
          await users.redirect(target.lowerName, target.id);
        }
        moveFolderBack = await this.repoEdits.ownerRenamed(repos, target.id, target.name, newName);
      });
    } catch (error) {
      moveFolderBack();
      if (error instanceof NameTakenError) throw new ValidationError(`user already exists [name: ${newName}]`);
      throw error;
    }
  }

  /** Individual accounts only, filtered by login source and login name. */
  async search(filter: UserSearch, page: ListOptions): Promise<{ users: User[]; total: number }> {
    // The admin list is a hot read: a prepared statement instead of two Prisma queries.
    return this.deps.repos.users.listIndividuals({
      sourceId: filter.sourceId,
      loginName: filter.loginName?.trim() || undefined,
      order: filter.sort ?? 'alphabetically',
      limit: page.limit,
      offset: page.skip,
    });
  }

  private checkName(name: string): void {
    switch (ownerNameProblem(name)) {
      case null:
        return;
      case 'reserved':
        throw new ValidationError(`name is reserved [name: ${name}]`);
      case 'pattern':
        throw new ValidationError(`name pattern is not allowed [pattern: ${name}]`);
      default:
        throw new ValidationError(
          `name is invalid [${name}]: must be valid alpha or numeric or dash(-_) or dot characters`,
        );
    }
  }

  private checkPassword(password: string): void {
    const { security } = this.deps.settings;
    const problem = passwordProblem(password, {
      minLength: security.MIN_PASSWORD_LENGTH,
      complexity: security.PASSWORD_COMPLEXITY,
      checkPwned: security.PASSWORD_CHECK_PWN,
    });
    if (problem) throw new BadRequestError(problem);
  }

  /** 0 is the built-in plain source; any other id must name a login source. */
  private async loginTypeOf(sourceId: number): Promise<number> {
    if (sourceId === 0) return LoginType.plain;
    const source = await this.loginSources.findById(sourceId);
    if (!source) throw new ValidationError(`login source does not exist [id: ${sourceId}]`);
    return source.type;
  }

  private parseVisibility(name: string | undefined): number | undefined {
    if (name === undefined || name === '') return undefined;
    if (!Object.hasOwn(Visibility, name)) {
      throw new ValidationError(`invalid visibility "${name}": must be public, limited or private`);
    }
    return Visibility[name as keyof typeof Visibility];
  }

  /** Admin-created and edited accounts ignore the domain lists, but the caller is told (Forgejo's X-Gitea-Warning). */
  private emailDomainWarning(email: string): string | null {
    const { EMAIL_DOMAIN_ALLOWLIST, EMAIL_DOMAIN_BLOCKLIST } = this.deps.settings.service;
    if (emailDomainAllowed(email, EMAIL_DOMAIN_ALLOWLIST, EMAIL_DOMAIN_BLOCKLIST)) return null;
    return `the domain of user email ${email} conflicts with EMAIL_DOMAIN_ALLOWLIST or EMAIL_DOMAIN_BLOCKLIST`;
  }

  private async isLastAdmin(users: UserRepository, user: User): Promise<boolean> {
    return (await users.countAdminsExcept(user.id)) === 0;
  }

  /** Repository folders and avatars of deleted owners, and package blobs nothing refers to any more. */
  private async removeFiles(owners: User[], blobHashes: string[]): Promise<void> {
    await Promise.all([this.ownerStorage.ownersDeleted(owners), removeUnreferencedBlobs(this.deps, blobHashes)]);
  }
}
