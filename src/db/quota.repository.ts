// Quota rules, groups and who is in them (Forgejo: models/quota/{rule,group}.go). Group and rule names are the
// keys; a rule's subjects are stored as a JSON array of subject strings.
import type { QuotaGroup, QuotaRule, QuotaSubject } from '../domain/quota.ts';
import { translated } from '../infra/database/errors.ts';
import type { DbClient, User } from './prisma.ts';

interface RuleRow {
  name: string;
  limit: bigint;
  subjects: string;
}

function toRule(row: RuleRow): QuotaRule {
  return { name: row.name, limit: Number(row.limit), subjects: JSON.parse(row.subjects) as QuotaSubject[] };
}

const withRules = { rules: { include: { rule: true }, orderBy: { id: 'asc' } } } as const;

function toGroup(row: { name: string; rules: { rule: RuleRow }[] }): QuotaGroup {
  return { name: row.name, rules: row.rules.map((link) => toRule(link.rule)) };
}

export class QuotaRepository {
  constructor(private readonly client: DbClient) {}

  // ---- rules ----

  async listRules(): Promise<QuotaRule[]> {
    return (await this.client.quotaRule.findMany({ orderBy: { name: 'asc' } })).map(toRule);
  }

  async findRule(name: string): Promise<QuotaRule | null> {
    const row = await this.client.quotaRule.findUnique({ where: { name } });
    return row && toRule(row);
  }

  async createRule(rule: QuotaRule): Promise<QuotaRule> {
    const row = await translated({ taken: 'quota rule name' }, () =>
      this.client.quotaRule.create({
        data: { name: rule.name, limit: BigInt(rule.limit), subjects: JSON.stringify(rule.subjects) },
      }),
    );
    return toRule(row);
  }

  async updateRule(name: string, changes: { limit?: number; subjects?: QuotaSubject[] }): Promise<QuotaRule> {
    const row = await this.client.quotaRule.update({
      where: { name },
      data: {
        ...(changes.limit !== undefined ? { limit: BigInt(changes.limit) } : {}),
        ...(changes.subjects !== undefined ? { subjects: JSON.stringify(changes.subjects) } : {}),
      },
    });
    return toRule(row);
  }

  /** Removes the rule and its place in every group; false when there was none. */
  async deleteRule(name: string): Promise<boolean> {
    await this.client.quotaGroupRule.deleteMany({ where: { ruleName: name } });
    return (await this.client.quotaRule.deleteMany({ where: { name } })).count > 0;
  }

  // ---- groups ----

  async listGroups(): Promise<QuotaGroup[]> {
    return (await this.client.quotaGroup.findMany({ include: withRules, orderBy: { name: 'asc' } })).map(toGroup);
  }

  async findGroup(name: string): Promise<QuotaGroup | null> {
    const row = await this.client.quotaGroup.findUnique({ where: { name }, include: withRules });
    return row && toGroup(row);
  }

  async createGroup(name: string): Promise<void> {
    await translated({ taken: 'quota group name' }, () => this.client.quotaGroup.create({ data: { name } }));
  }

  /** Removes the group, its rule links and its members; false when there was none. */
  async deleteGroup(name: string): Promise<boolean> {
    await this.client.quotaGroupRule.deleteMany({ where: { groupName: name } });
    await this.client.quotaGroupUser.deleteMany({ where: { groupName: name } });
    return (await this.client.quotaGroup.deleteMany({ where: { name } })).count > 0;
  }

  async hasRule(groupName: string, ruleName: string): Promise<boolean> {
    return (await this.client.quotaGroupRule.count({ where: { groupName, ruleName } })) > 0;
  }

  async addRule(groupName: string, ruleName: string): Promise<void> {
    await translated({ taken: 'rule in the group' }, () =>
      this.client.quotaGroupRule.create({ data: { groupName, ruleName } }),
    );
  }

  /** False when the rule was not in the group. */
  async removeRule(groupName: string, ruleName: string): Promise<boolean> {
    return (await this.client.quotaGroupRule.deleteMany({ where: { groupName, ruleName } })).count > 0;
  }

  // ---- members ----

  async listUsers(groupName: string): Promise<User[]> {
    const links = await this.client.quotaGroupUser.findMany({ where: { groupName }, select: { userId: true } });
    return this.client.user.findMany({
      where: { id: { in: links.map((link) => link.userId) } },
      orderBy: { id: 'asc' },
    });
  }

  async hasUser(groupName: string, userId: number): Promise<boolean> {
    return (await this.client.quotaGroupUser.count({ where: { groupName, userId } })) > 0;
  }

  async addUser(groupName: string, userId: number): Promise<void> {
    await translated({ taken: 'member of the group' }, () =>
      this.client.quotaGroupUser.create({ data: { groupName, userId } }),
    );
  }

  /** False when the user was not in the group. */
  async removeUser(groupName: string, userId: number): Promise<boolean> {
    return (await this.client.quotaGroupUser.deleteMany({ where: { groupName, userId } })).count > 0;
  }

  async removeUserFromAll(userId: number): Promise<void> {
    await this.client.quotaGroupUser.deleteMany({ where: { userId } });
  }

  /** The groups with their rules that the user (or organization) is in. */
  async groupsOf(userId: number): Promise<QuotaGroup[]> {
    const rows = await this.client.quotaGroup.findMany({
      where: { users: { some: { userId } } },
      include: withRules,
      orderBy: { name: 'asc' },
    });
    return rows.map(toGroup);
  }

  /** Those of the named groups that exist, with their rules ([quota] DEFAULT_GROUPS). */
  async groupsNamed(names: readonly string[]): Promise<QuotaGroup[]> {
    if (names.length === 0) return [];
    const rows = await this.client.quotaGroup.findMany({
      where: { name: { in: [...names] } },
      include: withRules,
      orderBy: { name: 'asc' },
    });
    return rows.map(toGroup);
  }
}
