// Administration: /admin/… (Forgejo: tokenRequiresScopes(admin), reqToken, reqSiteAdmin on the whole group, before
// any path parameter is resolved): anonymous 401, everyone but the site admin 403 whatever the owner's visibility.
// Columns: see matrix.ts; the public-only and read-only tokens are the (non-admin) owner's.
// Paths that name a user have the user's visibility as their owner dimension; unadopted repositories are named by an
// organization of each visibility.
import { uniqueName } from '../../helpers/factories.ts';
import type { MatrixRow } from './matrix.ts';
import { newPublicKey } from './world.ts';

//                                         anon outsd member team owner admin pubOnly readOnly
export const ADMIN_ROWS: readonly MatrixRow[] = [
  {
    operation: 'adminCronList',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminCronRun',
    params: { task: 'cronTask' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminGetAllEmails',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminSearchEmails',
    query: { q: 'example' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminGetAllOrgs',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminSearchUsers',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminCreateUser',
    body: () => ({
      username: uniqueName('user'),
      email: `${uniqueName('mail')}@example.com`,
      password: 'password-1234',
      must_change_password: false,
    }),
    expected: { anyOwner: [401, 403, 403, 403, 403, 201, 403, 403] },
  },
  {
    operation: 'adminListHooks',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminCreateHook',
    body: { type: 'gitea', config: { url: 'https://hooks.example/admin', content_type: 'json' }, events: ['push'] },
    expected: { anyOwner: [401, 403, 403, 403, 403, 201, 403, 403] },
  },
  {
    operation: 'adminGetHook',
    params: { id: 'adminHook' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminEditHook',
    params: { id: 'adminHook' },
    body: { active: true },
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminDeleteHook',
    params: { id: 'new:adminHook' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminUnadoptedList',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminGetRunnerRegistrationToken',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminListQuotaGroups',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminCreateQuotaGroup',
    body: () => ({ name: uniqueName('group'), rules: [] }),
    expected: { anyOwner: [401, 403, 403, 403, 403, 201, 403, 403] },
  },
  {
    operation: 'adminGetQuotaGroup',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminDeleteQuotaGroup',
    params: { quotagroup: 'new:quotaGroup' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminListUsersInQuotaGroup',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminAddRuleToQuotaGroup',
    params: { quotagroup: 'new:quotaGroup' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminRemoveRuleFromQuotaGroup',
    params: { quotagroup: 'new:quotaGroupWithRule' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminListQuotaRules',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminCreateQuotaRule',
    body: () => ({ name: uniqueName('rule'), limit: 1024, subjects: ['size:all'] }),
    expected: { anyOwner: [401, 403, 403, 403, 403, 201, 403, 403] },
  },
  {
    operation: 'adminGetQuotaRule',
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminEditQuotaRule',
    body: { limit: 1024 * 1024 * 1024 },
    expected: { anyOwner: [401, 403, 403, 403, 403, 200, 403, 403] },
  },
  {
    operation: 'adminDEleteQuotaRule',
    params: { quotarule: 'new:quotaRule' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 204, 403, 403] },
  },
  {
    operation: 'adminEditUser',
    owner: 'user',
    body: { location: 'edited' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 200, 403, 403],
        limited: [401, 403, 403, 403, 403, 200, 403, 403],
        private: [401, 403, 403, 403, 403, 200, 403, 403],
      },
    },
  },
  {
    operation: 'adminDeleteUser',
    owner: 'user',
    params: { username: 'new:ownerUserOfVisibility' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminRenameUser',
    owner: 'user',
    params: { username: 'new:ownerUserOfVisibility' },
    body: () => ({ new_username: uniqueName('renamed') }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminCreatePublicKey',
    owner: 'user',
    body: () => ({ key: newPublicKey(), title: uniqueName('key') }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 201, 403, 403],
        limited: [401, 403, 403, 403, 403, 201, 403, 403],
        private: [401, 403, 403, 403, 403, 201, 403, 403],
      },
    },
  },
  {
    operation: 'adminDeleteUserPublicKey',
    owner: 'user',
    params: { id: 'new:publicKey' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminCreateOrg',
    owner: 'user',
    body: () => ({ username: uniqueName('org') }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 201, 403, 403],
        limited: [401, 403, 403, 403, 403, 201, 403, 403],
        private: [401, 403, 403, 403, 403, 201, 403, 403],
      },
    },
  },
  {
    operation: 'adminCreateRepo',
    owner: 'user',
    body: () => ({ name: uniqueName('repo') }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 201, 403, 403],
        limited: [401, 403, 403, 403, 403, 201, 403, 403],
        private: [401, 403, 403, 403, 403, 201, 403, 403],
      },
    },
  },
  {
    operation: 'adminGetUserQuota',
    owner: 'user',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 200, 403, 403],
        limited: [401, 403, 403, 403, 403, 200, 403, 403],
        private: [401, 403, 403, 403, 403, 200, 403, 403],
      },
    },
  },
  {
    operation: 'adminSetUserQuotaGroups',
    owner: 'user',
    body: { groups: [] },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminAddUserToQuotaGroup',
    owner: 'user',
    params: { quotagroup: 'new:quotaGroup' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminRemoveUserFromQuotaGroup',
    owner: 'user',
    params: { quotagroup: 'new:quotaGroupWithUser' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminAdoptRepository',
    params: { repo: 'new:unadopted' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
  {
    operation: 'adminDeleteUnadoptedRepository',
    params: { repo: 'new:unadopted' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 403, 204, 403, 403],
        limited: [401, 403, 403, 403, 403, 204, 403, 403],
        private: [401, 403, 403, 403, 403, 204, 403, 403],
      },
    },
  },
];
