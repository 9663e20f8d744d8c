// The admin user and organization lists as SQL for the prepared statements of hot-queries.ts. A page is read from
// the nearer end (page-window.ts): the last page of 100,000 users walks 50 index entries, not 99,950.

/** Orders of the admin user list, Forgejo's names; each ends with a unique column so it can be read backwards. */
export const USER_LIST_ORDERS = {
  oldest: '"createdAt" ASC, "id" ASC',
  newest: '"createdAt" DESC, "id" DESC',
  alphabetically: '"lowerName" ASC',
  reversealphabetically: '"lowerName" DESC',
  recentupdate: '"updatedAt" DESC, "id" DESC',
  leastupdate: '"updatedAt" ASC, "id" ASC',
} as const;
export type UserListOrder = keyof typeof USER_LIST_ORDERS;

export interface UserListQuery {
  sourceId?: number;
  loginName?: string;
  order: UserListOrder;
  limit: number;
  offset: number;
}

/** An ORDER BY with every direction turned. */
function reversedSql(order: string): string {
  return order.replace(/\b(ASC|DESC)\b/g, (direction) => (direction === 'ASC' ? 'DESC' : 'ASC'));
}

/** A page statement in the order and one in the reversed order; the last two parameters are LIMIT and OFFSET. */
export interface PageSql {
  forward: string;
  reversed: string;
  count: string;
}

function pageSql(columns: string, where: string, order: string, parameters: number): PageSql {
  const page = (by: string) =>
    `SELECT ${columns} FROM "User" WHERE ${where} ORDER BY ${by} LIMIT $${parameters + 1} OFFSET $${parameters + 2}`;
  return {
    forward: page(order),
    reversed: page(reversedSql(order)),
    count: `SELECT COUNT(*) AS "total" FROM "User" WHERE ${where}`,
  };
}

/** Every organization by name. */
export function orgListSql(columns: string): PageSql {
  return pageSql(columns, '"type" = 1', '"lowerName" ASC', 0);
}

/** The statements and values of a user list; `key` names the statements' shape (statements are cached by it). */
export function userListSql(columns: string, query: UserListQuery): { key: string; values: unknown[]; sql: PageSql } {
  const conditions = ['"type" = 0'];
  const values: unknown[] = [];
  if (query.sourceId !== undefined) {
    values.push(query.sourceId);
    conditions.push(`"loginSourceId" = $${values.length}`);
  }
  if (query.loginName !== undefined) {
    values.push(query.loginName);
    conditions.push(`"loginName" = $${values.length}`);
  }
  return {
    key: `${query.sourceId !== undefined ? 's' : ''}${query.loginName !== undefined ? 'l' : ''}_${query.order}`,
    values,
    sql: pageSql(columns, conditions.join(' AND '), USER_LIST_ORDERS[query.order], values.length),
  };
}
