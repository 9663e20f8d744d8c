import { linkHeader, listOptions } from '../../src/http/pagination.ts';

const paging = { DEFAULT_PAGING_NUM: 30, MAX_RESPONSE_ITEMS: 50 };

describe('listOptions', () => {
  it.each([
    [{}, { page: 1, limit: 30, skip: 0 }],
    [
      { page: 0, limit: 0 },
      { page: 1, limit: 30, skip: 0 },
    ],
    [
      { page: -3, limit: -1 },
      { page: 1, limit: 30, skip: 0 },
    ],
    [
      { page: 3, limit: 10 },
      { page: 3, limit: 10, skip: 20 },
    ],
    [
      { page: 2, limit: 500 },
      { page: 2, limit: 50, skip: 50 },
    ],
  ])('%j → %j', (query, expected) => {
    expect(listOptions(query, paging)).toEqual(expected);
  });
});

describe('linkHeader', () => {
  const url = new URL('http://localhost:3000/api/v1/admin/users?limit=10&page=2');
  it('lists next, last, first, prev in that order, joined without spaces', () => {
    expect(linkHeader(url, 2, 10, 35)).toBe(
      [
        '<http://localhost:3000/api/v1/admin/users?limit=10&page=3>; rel="next"',
        '<http://localhost:3000/api/v1/admin/users?limit=10&page=4>; rel="last"',
        '<http://localhost:3000/api/v1/admin/users?limit=10&page=1>; rel="first"',
        '<http://localhost:3000/api/v1/admin/users?limit=10&page=1>; rel="prev"',
      ].join(','),
    );
  });
  it('has no next/last on the last page and no first/prev on the first', () => {
    expect(linkHeader(url, 4, 10, 35)).not.toMatch(/next|last/);
    expect(linkHeader(url, 1, 10, 35)).not.toMatch(/first|prev/);
    expect(linkHeader(url, 1, 10, 5)).toBe('');
  });
  it('clamps a page beyond the end to the last page', () => {
    expect(linkHeader(url, 99, 10, 35)).toMatch(/page=3>; rel="prev"$/);
  });
});
