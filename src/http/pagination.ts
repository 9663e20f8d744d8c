// page/limit list options and the X-Total-Count / Link headers, in Forgejo's format.
import type { Response } from 'express';
import type { ListOptions } from '../domain/page.ts';

const MAX_OFFSET = 2 ** 31 - 1;

export type { ListOptions } from '../domain/page.ts';

export interface PagingSettings {
  DEFAULT_PAGING_NUM: number;
  MAX_RESPONSE_ITEMS: number;
}

export function listOptions(
  query: { page?: number; limit?: number },
  paging: PagingSettings,
  defaultLimit = paging.DEFAULT_PAGING_NUM,
): ListOptions {
  let limit = query.limit && query.limit > 0 ? Math.floor(query.limit) : defaultLimit;
  limit = Math.min(limit, paging.MAX_RESPONSE_ITEMS);
  // Pages past what a 32-bit offset can reach are simply empty.
  const lastReachablePage = Math.floor(MAX_OFFSET / limit);
  const page = query.page && query.page > 0 ? Math.min(Math.floor(query.page), lastReachablePage) : 1;
  return { page, limit, skip: (page - 1) * limit };
}

/** The Link header value: next, last, first, prev, joined by a comma without spaces. */
export function linkHeader(requestUrl: URL, page: number, limit: number, total: number): string {
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const current = Math.min(page, lastPage);
  const at = (p: number) => {
    const url = new URL(requestUrl);
    url.searchParams.set('page', String(p));
    return url.toString();
  };
  const links: string[] = [];
  if (current < lastPage) links.push(`<${at(current + 1)}>; rel="next"`);
  if (current < lastPage) links.push(`<${at(lastPage)}>; rel="last"`);
  if (current > 1) links.push(`<${at(1)}>; rel="first"`);
  if (current > 1) links.push(`<${at(current - 1)}>; rel="prev"`);
  return links.join(',');
}

export function setTotalCount(res: Response, total: number): void {
  res.setHeader('X-Total-Count', String(total));
  exposeHeader(res, 'X-Total-Count');
}

export function setPaginationHeaders(res: Response, requestUrl: URL, options: ListOptions, total: number): void {
  setTotalCount(res, total);
  const link = linkHeader(requestUrl, options.page, options.limit, total);
  if (link) {
    res.setHeader('Link', link);
    exposeHeader(res, 'Link');
  }
}

function exposeHeader(res: Response, name: string): void {
  const current = res.getHeader('Access-Control-Expose-Headers');
  const names = current ? String(current).split(/,\s*/) : [];
  if (!names.includes(name)) names.push(name);
  res.setHeader('Access-Control-Expose-Headers', names.join(', '));
}
