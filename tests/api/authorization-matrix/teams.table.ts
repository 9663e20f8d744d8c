// Teams by id: /teams/{id}/…. Columns: see matrix.ts.
// Forgejo: teamAssignment, reqToken, reqTeamMembership (site admins, owners of the team's organization and the
// team's members; other members of the organization 403, everyone else 404), and reqOrgOwnership for changes, which
// in a team's path is 404 for a team member who is not an owner. A team of an organization the caller may not see is
// 404 before sign-in is asked for (Forgejo asks for sign-in first, which tells anonymous callers which team ids
// exist). Throwaway teams (`new:team`) hold no one, so the team member is an organization member outside them (403).
import type { MatrixRow } from './matrix.ts';

//                                         anon outsd member team owner admin pubOnly readOnly
export const TEAM_ROWS: readonly MatrixRow[] = [
  {
    operation: 'orgGetTeam',
    params: { id: 'team' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 200, 200, 200, 200, 200],
        limited: [404, 404, 403, 200, 200, 200, 403, 200],
        private: [404, 404, 403, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgEditTeam',
    params: { id: 'team' },
    body: { description: 'edited' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 404, 200, 200, 200, 403],
        limited: [404, 404, 403, 404, 200, 200, 403, 403],
        private: [404, 404, 403, 404, 200, 200, 403, 403],
      },
    },
  },
  {
    operation: 'orgDeleteTeam',
    params: { id: 'new:team' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 403, 204, 204, 204, 403],
        limited: [404, 404, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListTeamMembers',
    params: { id: 'team' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 200, 200, 200, 200, 200],
        limited: [404, 404, 403, 200, 200, 200, 403, 200],
        private: [404, 404, 403, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListTeamMember',
    params: { id: 'team', username: 'teamMember' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 200, 200, 200, 200, 200],
        limited: [404, 404, 403, 200, 200, 200, 403, 200],
        private: [404, 404, 403, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgAddTeamMember',
    params: { id: 'new:team', username: 'orgMember' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 403, 204, 204, 204, 403],
        limited: [404, 404, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgRemoveTeamMember',
    params: { id: 'new:teamWithMember', username: 'orgMember' },
    // The org member is in the throwaway team, so it passes the team check and meets the owner check's 404.
    expected: {
      byOwner: {
        public: [401, 404, 404, 403, 204, 204, 204, 403],
        limited: [404, 404, 404, 403, 204, 204, 403, 403],
        private: [404, 404, 404, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListTeamRepos',
    params: { id: 'team' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 200, 200, 200, 200, 200],
        limited: [404, 404, 403, 200, 200, 200, 403, 200],
        private: [404, 404, 403, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListTeamActivityFeeds',
    params: { id: 'team' },
    expected: {
      byOwner: {
        public: [401, 404, 403, 200, 200, 200, 200, 200],
        limited: [404, 404, 403, 200, 200, 200, 403, 200],
        private: [404, 404, 403, 200, 200, 200, 403, 200],
      },
    },
  },
  // The repository of the path is looked up in the team's organization; adding and removing it need admin access on it.
  {
    operation: 'orgListTeamRepo',
    params: { id: 'team' },
    expected: {
      byRepo: {
        public: {
          public: [401, 404, 403, 200, 200, 200, 200, 200],
          limited: [404, 404, 403, 200, 200, 200, 403, 200],
          private: [404, 404, 403, 200, 200, 200, 403, 200],
        },
        private: {
          public: [401, 404, 403, 200, 200, 200, 200, 200],
          limited: [404, 404, 403, 200, 200, 200, 403, 200],
          private: [404, 404, 403, 200, 200, 200, 403, 200],
        },
      },
    },
  },
  {
    operation: 'orgAddTeamRepository',
    params: { id: 'new:team' },
    expected: {
      byRepo: {
        public: {
          public: [401, 404, 403, 403, 204, 204, 204, 403],
          limited: [404, 404, 403, 403, 204, 204, 403, 403],
          private: [404, 404, 403, 403, 204, 204, 403, 403],
        },
        private: {
          public: [401, 404, 403, 403, 204, 204, 204, 403],
          limited: [404, 404, 403, 403, 204, 204, 403, 403],
          private: [404, 404, 403, 403, 204, 204, 403, 403],
        },
      },
    },
  },
  {
    operation: 'orgRemoveTeamRepository',
    params: { id: 'new:teamWithRepo' },
    expected: {
      byRepo: {
        public: {
          public: [401, 404, 403, 403, 204, 204, 204, 403],
          limited: [404, 404, 403, 403, 204, 204, 403, 403],
          private: [404, 404, 403, 403, 204, 204, 403, 403],
        },
        private: {
          public: [401, 404, 403, 403, 204, 204, 204, 403],
          limited: [404, 404, 403, 403, 204, 204, 403, 403],
          private: [404, 404, 403, 403, 204, 204, 403, 403],
        },
      },
    },
  },
];
