// The paging and search parameters of the NuGet feeds: V3's skip and take, V2's OData $skip, $top, searchTerm and
// $filter (of whose grammar only the quoted term is read, as Forgejo does).
import type { NugetPage } from './nuget.service.ts';

const DEFAULT_TAKE = 30;
const MAX_TAKE = 100;

function count(value: unknown, fallback: number): number {
  const number = typeof value === 'string' && /^\d{1,9}$/.test(value.trim()) ? Number(value) : fallback;
  return number;
}

export function nugetPage(skip: unknown, take: unknown): NugetPage {
  return { skip: count(skip, 0), take: Math.min(count(take, DEFAULT_TAKE), MAX_TAKE) };
}

export interface SearchTerm {
  text: string;
  /** `$filter=… eq '…'`: the id itself. */
  exact: boolean;
}

const unquote = (text: string) => text.trim().replace(/^'+|'+$/g, '');

/** `searchTerm='…'`, else the quoted text of `$filter` (`substringof('term',tolower(Id))`, `tolower(Id) eq 'x'`). */
export function v2SearchTerm(query: Record<string, unknown>): SearchTerm {
  const term = typeof query.searchTerm === 'string' ? unquote(query.searchTerm) : '';
  if (term !== '') return { text: term, exact: false };
  const filter = typeof query.$filter === 'string' ? query.$filter : '';
  const quoted = /'([^']+)'/.exec(filter);
  if (!quoted) return { text: '', exact: false };
  return { text: quoted[1].trim(), exact: /\s+eq\s+'/.test(filter) };
}
