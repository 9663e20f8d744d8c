// Organizations: /orgs/{org}/… and /users/{username}/orgs/{org}/permissions. Columns: see matrix.ts.
// Row kinds by guard chain (Forgejo routers/api/v1/api.go, /orgs/{org} group): open reads (orgAssignment only),
// signed-in reads (reqToken), member reads (reqOrgMembership: /teams), owner reads and writes (reqOrgOwnership).
// A public-only token reaches public organizations only (403 past the visibility check); a read-only token is 403
// on every write (its scope).
import { uniqueName } from '../../helpers/factories.ts';
import type { MatrixRow } from './matrix.ts';

/** A 1×1 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

//                                         anon outsd member team owner admin pubOnly readOnly
export const ORG_ROWS: readonly MatrixRow[] = [
  {
    operation: 'orgGet',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgEdit',
    body: { description: 'edited' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 403],
        limited: [404, 403, 403, 403, 200, 200, 403, 403],
        private: [404, 404, 403, 403, 200, 200, 403, 403],
      },
    },
  },
  {
    operation: 'orgDelete',
    // The organization still owns repositories: 422 for whoever may try (Forgejo v10 answers 500).
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 422, 422, 422, 403],
        limited: [404, 403, 403, 403, 422, 422, 403, 403],
        private: [404, 404, 403, 403, 422, 422, 403, 403],
      },
    },
  },
  {
    operation: 'orgListRepos',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'createOrgRepo',
    body: () => ({ name: uniqueName('repo') }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [404, 403, 403, 403, 201, 201, 403, 403],
        private: [404, 404, 403, 403, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'orgListMembers',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgIsMember',
    // A caller outside the organization is sent to the public-member check (303).
    expected: {
      byOwner: {
        public: [401, 303, 204, 204, 204, 204, 204, 204],
        limited: [404, 303, 204, 204, 204, 204, 403, 204],
        private: [404, 404, 204, 204, 204, 204, 403, 204],
      },
    },
  },
  {
    operation: 'orgDeleteMember',
    params: { username: 'new:member' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListPublicMembers',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgIsPublicMember',
    params: { username: 'publicMember' },
    expected: {
      byOwner: {
        public: [204, 204, 204, 204, 204, 204, 204, 204],
        limited: [404, 204, 204, 204, 204, 204, 403, 204],
        private: [404, 404, 204, 204, 204, 204, 403, 204],
      },
    },
  },
  {
    operation: 'orgListTeams',
    expected: {
      byOwner: {
        public: [401, 403, 200, 200, 200, 200, 200, 200],
        limited: [404, 403, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'teamSearch',
    expected: {
      byOwner: {
        public: [401, 403, 200, 200, 200, 200, 200, 200],
        limited: [404, 403, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgCreateTeam',
    body: () => ({ name: uniqueName('team'), permission: 'read', units: ['repo.code'] }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [404, 403, 403, 403, 201, 201, 403, 403],
        private: [404, 404, 403, 403, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'orgListLabels',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgGetLabel',
    params: { id: 'label' },
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgCreateLabel',
    body: () => ({ name: uniqueName('label'), color: '#00aabb' }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [404, 403, 403, 403, 201, 201, 403, 403],
        private: [404, 404, 403, 403, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'orgEditLabel',
    params: { id: 'label' },
    body: { description: 'edited' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 403],
        limited: [404, 403, 403, 403, 200, 200, 403, 403],
        private: [404, 404, 403, 403, 200, 200, 403, 403],
      },
    },
  },
  {
    operation: 'orgDeleteLabel',
    params: { id: 'new:label' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListHooks',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgGetHook',
    params: { id: 'orgHook' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgCreateHook',
    body: { type: 'gitea', config: { url: 'https://hooks.example/x', content_type: 'json' }, events: ['push'] },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [404, 403, 403, 403, 201, 201, 403, 403],
        private: [404, 404, 403, 403, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'orgEditHook',
    params: { id: 'orgHook' },
    body: { active: false },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 403],
        limited: [404, 403, 403, 403, 200, 200, 403, 403],
        private: [404, 404, 403, 403, 200, 200, 403, 403],
      },
    },
  },
  {
    operation: 'orgDeleteHook',
    params: { id: 'new:orgHook' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgUpdateAvatar',
    body: { image: PNG_BASE64 },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgDeleteAvatar',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListActivityFeeds',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListBlockedUsers',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgBlockUser',
    params: { username: 'new:user' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgUnblockUser',
    params: { username: 'new:blockedUser' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgListActionsSecrets',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'updateOrgSecret',
    body: { data: 'value' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'deleteOrgSecret',
    params: { secretname: 'new:secret' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'getOrgVariablesList',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'getOrgVariable',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'createOrgVariable',
    params: { variablename: 'new:variableName' },
    body: { value: 'value' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'updateOrgVariable',
    body: { value: 'value' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'deleteOrgVariable',
    params: { variablename: 'new:variable' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 403, 403, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'orgGetRunnerRegistrationToken',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgGetQuota',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgCheckQuota',
    query: { subject: 'size:all' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListQuotaArtifacts',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListQuotaAttachments',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListQuotaPackages',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 200, 200, 200, 200],
        limited: [404, 403, 403, 403, 200, 200, 403, 200],
        private: [404, 404, 403, 403, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgGetUserPermissions',
    // The org member's permissions. Forgejo asks whether the named user may see the organization, not the caller,
    // so it shows an organization's existence to callers who may not see it; here that caller gets 404.
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },

  {
    operation: 'createOrgRepoDeprecated',
    body: () => ({ name: uniqueName('repo') }),
    // Sign-in is asked for first (Forgejo: reqToken before the handler resolves the organization), and a missing
    // organization is 422 here; an organization the caller may not see answers as a missing one (Forgejo: 404 after
    // finding it, which tells callers it exists).
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [401, 403, 403, 403, 201, 201, 403, 403],
        private: [401, 422, 403, 403, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'orgPublicizeMember',
    // Only for the caller's own membership: everyone else, site admins included, is 403.
    expected: {
      byOwner: {
        public: [401, 403, 204, 403, 403, 403, 403, 403],
        limited: [404, 403, 204, 403, 403, 403, 403, 403],
        private: [404, 404, 204, 403, 403, 403, 403, 403],
      },
    },
  },
  {
    operation: 'orgConcealMember',
    expected: {
      byOwner: {
        public: [401, 403, 204, 403, 403, 403, 403, 403],
        limited: [404, 403, 204, 403, 403, 403, 403, 403],
        private: [404, 404, 204, 403, 403, 403, 403, 403],
      },
    },
  },
];
