// The matrix covers the contract: every operation has a row, so a new route cannot ship without stating who may
// call it; and every row names an operation of the contract with values for all of its path parameters.
import { OPERATIONS, type OperationId } from '../../../generated/operations.ts';
import { ALL_ROWS } from './all-rows.ts';

describe('authorization matrix coverage', () => {
  it('has a row for every operation of the contract', () => {
    const covered = new Set(ALL_ROWS.map((row) => row.operation));
    const missing = (Object.keys(OPERATIONS) as OperationId[]).filter((operation) => !covered.has(operation));
    expect(missing).toEqual([]);
  });

  it('states a repository dimension exactly for paths that name a repository, and an owner one only for paths with an owner', () => {
    const wrong = ALL_ROWS.filter((row) => {
      const path = OPERATIONS[row.operation].path;
      // Unadopted repositories are directories, not repositories: their owner is the dimension.
      const namesRepo = path.includes('{repo}') && !path.includes('/unadopted/');
      // A team belongs to an organization: /teams/{id} has the organization's visibility as its dimension.
      const namesOwner = /\{(org|owner|username|userId)\}/.test(path) || path.startsWith('/api/v1/teams/');
      if ('byRepo' in row.expected) return !namesRepo;
      if ('byOwner' in row.expected) return namesRepo || !namesOwner;
      return namesRepo;
    });
    expect(wrong.map((row) => row.operation)).toEqual([]);
  });

  it('names only path parameters the operation has', () => {
    const wrong = ALL_ROWS.flatMap((row) =>
      Object.keys(row.params ?? {})
        .filter((param) => !OPERATIONS[row.operation].path.includes(`{${param}}`))
        .map((param) => `${row.operation} {${param}}`),
    );
    expect(wrong).toEqual([]);
  });
});
