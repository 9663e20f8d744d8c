// The authorization matrix as data: for each operation, the status each caller gets against a public, a limited
// and a private organization (and, for repository operations, a public and a private repository in it).
// Column order is CALLERS. Writes send harmless bodies; deletes hit a throwaway resource made for the cell, and
// deleting an organization that still owns repositories is 422 for whoever may try. Tokens of the public-only and
// read-only kinds belong to the organization's owner.
// /teams/{id}: a team of an organization the caller may not see is 404 before sign-in is asked for (Forgejo asks for
// sign-in first, which tells anonymous callers which team ids exist); then anonymous is 401, a caller outside the
// organization 404, and a team member who is not an owner 404 on owner-only team routes (Forgejo's
// reqOrgOwnership under /teams). A public-only token is refused a repository only when the
// repository itself is private, whatever its owner's visibility.
export const CALLERS = ['anonymous', 'outsider', 'orgMember', 'teamMember', 'orgOwner', 'siteAdmin', 'publicOnlyToken', 'readOnlyToken'] as const;
export type CallerName = (typeof CALLERS)[number];
export const OWNER_VISIBILITIES = ['public', 'limited', 'private'] as const;
export type OwnerVisibility = (typeof OWNER_VISIBILITIES)[number];
export type RepoVisibility = 'public' | 'private';

/** One status per caller, in CALLERS order. */
type Row = readonly [number, number, number, number, number, number, number, number];
export type ByOwner = Readonly<Record<OwnerVisibility, Row>>;

export interface MatrixOperation {
  /** `METHOD path`, path placeholders: {org}, {repo}, {team}, {hook}, {secret}, {package}. */
  readonly route: string;
  readonly body?: object;
  /** The path names a throwaway resource of this kind, made before each cell (deletes). */
  readonly throwaway?: 'team' | 'repo' | 'hook' | 'secret' | 'package';
  readonly expected: ByOwner | Readonly<Record<RepoVisibility, ByOwner>>;
}

//                        anon outsd member team owner admin pubOnly readOnly
export const MATRIX: readonly MatrixOperation[] = [
  {
    route: 'GET /orgs/{org}',
    expected: {
      public: [200, 200, 200, 200, 200, 200, 200, 200],
      limited: [404, 200, 200, 200, 200, 200, 403, 200],
      private: [404, 404, 200, 200, 200, 200, 403, 200],
    },
  },
  {
    route: 'PATCH /orgs/{org}',
    body: { description: 'edited' },
    expected: {
      public: [401, 403, 403, 403, 200, 200, 200, 403],
      limited: [404, 403, 403, 403, 200, 200, 403, 403],
      private: [404, 404, 403, 403, 200, 200, 403, 403],
    },
  },
  {
    route: 'DELETE /orgs/{org}',
    expected: {
      public: [401, 403, 403, 403, 422, 422, 422, 403],
      limited: [404, 403, 403, 403, 422, 422, 403, 403],
      private: [404, 404, 403, 403, 422, 422, 403, 403],
    },
  },
  {
    route: 'GET /orgs/{org}/teams',
    expected: {
      public: [401, 403, 200, 200, 200, 200, 200, 200],
      limited: [404, 403, 200, 200, 200, 200, 403, 200],
      private: [404, 404, 200, 200, 200, 200, 403, 200],
    },
  },
  {
    route: 'GET /teams/{team}',
    expected: {
      public: [401, 404, 403, 200, 200, 200, 200, 200],
      limited: [404, 404, 403, 200, 200, 200, 403, 200],
      private: [404, 404, 403, 200, 200, 200, 403, 200],
    },
  },
  {
    route: 'PATCH /teams/{team}',
    body: { description: 'edited' },
    expected: {
      public: [401, 404, 403, 404, 200, 200, 200, 403],
      limited: [404, 404, 403, 404, 200, 200, 403, 403],
      private: [404, 404, 403, 404, 200, 200, 403, 403],
    },
  },
  {
    route: 'DELETE /teams/{team}',
    throwaway: 'team',
    expected: {
      public: [401, 404, 403, 403, 204, 204, 204, 403],
      limited: [404, 404, 403, 403, 204, 204, 403, 403],
      private: [404, 404, 403, 403, 204, 204, 403, 403],
    },
  },
  {
    route: 'GET /repos/{org}/{repo}',
    expected: {
      public: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 200, 200],
        private: [404, 404, 200, 200, 200, 200, 200, 200],
      },
      private: {
        public: [404, 404, 404, 200, 200, 200, 403, 200],
        limited: [404, 404, 404, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    route: 'PATCH /repos/{org}/{repo}',
    body: { description: 'edited' },
    expected: {
      public: {
        public: [401, 403, 403, 403, 200, 200, 200, 403],
        limited: [404, 403, 403, 403, 200, 200, 200, 403],
        private: [404, 404, 403, 403, 200, 200, 200, 403],
      },
      private: {
        public: [404, 404, 404, 403, 200, 200, 403, 403],
        limited: [404, 404, 404, 403, 200, 200, 403, 403],
        private: [404, 404, 404, 403, 200, 200, 403, 403],
      },
    },
  },
  {
    route: 'DELETE /repos/{org}/{repo}',
    throwaway: 'repo',
    expected: {
      public: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 204, 403],
        private: [404, 404, 403, 403, 204, 204, 204, 403],
      },
      private: {
        public: [404, 404, 404, 403, 204, 204, 403, 403],
        limited: [404, 404, 404, 403, 204, 204, 403, 403],
        private: [404, 404, 404, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    route: 'GET /orgs/{org}/hooks',
    expected: {
      public: [401, 403, 403, 403, 200, 200, 200, 200],
      limited: [404, 403, 403, 403, 200, 200, 403, 200],
      private: [404, 404, 403, 403, 200, 200, 403, 200],
    },
  },
  {
    route: 'GET /orgs/{org}/hooks/{hook}',
    expected: {
      public: [401, 403, 403, 403, 200, 200, 200, 200],
      limited: [404, 403, 403, 403, 200, 200, 403, 200],
      private: [404, 404, 403, 403, 200, 200, 403, 200],
    },
  },
  {
    route: 'PATCH /orgs/{org}/hooks/{hook}',
    body: { active: false },
    expected: {
      public: [401, 403, 403, 403, 200, 200, 200, 403],
      limited: [404, 403, 403, 403, 200, 200, 403, 403],
      private: [404, 404, 403, 403, 200, 200, 403, 403],
    },
  },
  {
    route: 'DELETE /orgs/{org}/hooks/{hook}',
    throwaway: 'hook',
    expected: {
      public: [401, 403, 403, 403, 204, 204, 204, 403],
      limited: [404, 403, 403, 403, 204, 204, 403, 403],
      private: [404, 404, 403, 403, 204, 204, 403, 403],
    },
  },
  {
    route: 'GET /orgs/{org}/actions/secrets',
    expected: {
      public: [401, 403, 403, 403, 200, 200, 200, 200],
      limited: [404, 403, 403, 403, 200, 200, 403, 200],
      private: [404, 404, 403, 403, 200, 200, 403, 200],
    },
  },
  {
    route: 'DELETE /orgs/{org}/actions/secrets/{secret}',
    throwaway: 'secret',
    expected: {
      public: [401, 403, 403, 403, 204, 204, 204, 403],
      limited: [404, 403, 403, 403, 204, 204, 403, 403],
      private: [404, 404, 403, 403, 204, 204, 403, 403],
    },
  },
  {
    route: 'GET /packages/{org}',
    expected: {
      public: [401, 200, 200, 200, 200, 200, 200, 200],
      limited: [404, 200, 200, 200, 200, 200, 403, 200],
      private: [404, 404, 200, 200, 200, 200, 403, 200],
    },
  },
  {
    route: 'GET /packages/{org}/generic/{package}/1.0.0',
    expected: {
      public: [401, 200, 200, 200, 200, 200, 200, 200],
      limited: [404, 200, 200, 200, 200, 200, 403, 200],
      private: [404, 404, 200, 200, 200, 200, 403, 200],
    },
  },
  {
    route: 'DELETE /packages/{org}/generic/{package}/1.0.0',
    throwaway: 'package',
    expected: {
      public: [401, 403, 403, 204, 204, 204, 204, 403],
      limited: [404, 403, 403, 204, 204, 204, 403, 403],
      private: [404, 404, 403, 204, 204, 204, 403, 403],
    },
  },
];
