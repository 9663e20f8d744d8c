// Rows of a repository's operations written once per outcome: what each caller gets when it can see the repository
// (a public repository of a public owner; a private repository). Whoever cannot see it gets the 404 of the
// repository assignment, and a public-only token the 403 of a private repository, as in every repos row.
import type { Expected, Row } from './matrix.ts';

const ANON = 0;
const OUTSIDER = 1;
const MEMBER = 2;
const PUBLIC_ONLY = 6;

function masked(row: Row, hidden: readonly number[], forbidden: readonly number[] = []): Row {
  return row.map((status, index) =>
    hidden.includes(index) ? 404 : forbidden.includes(index) ? 403 : status,
  ) as unknown as Row;
}

/** `pub`: the statuses on a public repository of a public owner; `priv`: on a private repository, where seen. */
export function seenBy(pub: Row, priv: Row): Expected {
  const privateRepo = masked(priv, [ANON, OUTSIDER, MEMBER], [PUBLIC_ONLY]);
  return {
    byRepo: {
      public: { public: pub, limited: masked(pub, [ANON]), private: masked(pub, [ANON, OUTSIDER]) },
      private: { public: privateRepo, limited: privateRepo, private: privateRepo },
    },
  };
}

/** Everyone who sees the repository gets `status`. */
export function readers(status: number): Expected {
  const row = [status, status, status, status, status, status, status, status] as const;
  return seenBy(row, row);
}

/** Signed in and an admin of the repository (the owner, a site admin; read-only tokens are refused). */
export function admins(status: number): Expected {
  return seenBy([401, 403, 403, 403, status, status, status, 403], [0, 0, 0, 403, status, status, 0, 403]);
}

/** Signed in and a writer of issues or pull requests (the write team holds code and packages only). */
export function issueWriters(status: number): Expected {
  return admins(status);
}

/**
 * Content of the issues unit, decided per issue by the handler: readers see it, but the write team (code and
 * packages units only) does not on a private repository (404).
 */
export function issueReaders(status: number): Expected {
  const row = [status, status, status, status, status, status, status, status] as const;
  return seenBy(row, [0, 0, 0, 404, status, status, 0, status]);
}

/** Writers of an issue's unit, decided per issue by the handler (who cannot read it gets 404 first). */
export function issueContentWriters(status: number): Expected {
  return seenBy([401, 403, 403, 403, status, status, status, 403], [0, 0, 0, 404, status, status, 0, 403]);
}

/** Signed in and able to see the repository; a read-only token is refused the write. */
export function signedInReaders(status: number): Expected {
  return seenBy([401, status, status, status, status, status, status, 403], [0, 0, 0, status, status, status, 0, 403]);
}

/** Signed in and an admin of the repository, reading (a read-only token of the owner reads too). */
export function adminReaders(status: number): Expected {
  return seenBy([401, 403, 403, 403, status, status, status, status], [0, 0, 0, 403, status, status, 0, status]);
}

/** Signed in and reading the issue's unit (the write team does not on a private repository: 404); a read-only
 * token is refused the write. */
export function signedInIssueReaders(status: number): Expected {
  return seenBy([401, status, status, status, status, status, status, 403], [0, 0, 0, 404, status, status, 0, 403]);
}
