// Per-user settings kept as key/value rows (UserSetting): what Forgejo's user table holds and Anvil's does not.
import type { DbClient } from './prisma.ts';

export class UserSettingRepository {
  constructor(private readonly client: DbClient) {}

  async all(userId: number): Promise<Map<string, string>> {
    const rows = await this.client.userSetting.findMany({ where: { userId }, select: { key: true, value: true } });
    return new Map(rows.map((row) => [row.key, row.value]));
  }

  async get(userId: number, key: string): Promise<string | null> {
    const row = await this.client.userSetting.findUnique({
      where: { userId_key: { userId, key } },
      select: { value: true },
    });
    return row?.value ?? null;
  }

  async put(userId: number, key: string, value: string): Promise<void> {
    await this.client.userSetting.upsert({
      where: { userId_key: { userId, key } },
      create: { userId, key, value },
      update: { value },
    });
  }
}
