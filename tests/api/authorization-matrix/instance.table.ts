// The instance and the signed-in user: paths without an owner (one row for every owner), and /users/{username}/…
// whose owner dimension is the user's visibility (the owner column is the user themself). Columns: see matrix.ts.
// Templates, version, health, the contract and its docs, avatars, node info and the federation actor are public;
// markup rendering, /user/…, /notifications and creation need sign-in (reqToken). Scopes: markup and templates need
// none, so the read-only token renders too.
import { uniqueName } from '../../helpers/factories.ts';
import type { MatrixRow } from './matrix.ts';
import { newPublicKey } from './world.ts';

//                                         anon outsd member team owner admin pubOnly readOnly
export const INSTANCE_ROWS: readonly MatrixRow[] = [
  {
    operation: 'getVersion',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'healthCheck',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getApiContract',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getApiDocs',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getApiDocsAsset',
    params: { asset: 'docsAsset' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getAvatar',
    params: { hash: 'avatarHash' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getDefaultAvatar',
    params: { id: 'ownerId' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'listGitignoresTemplates',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getGitignoreTemplateInfo',
    params: { name: 'gitignore' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'listLabelTemplates',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getLabelTemplateInfo',
    params: { name: 'labelTemplate' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'listLicenseTemplates',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getLicenseTemplateInfo',
    params: { name: 'license' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getNodeInfo',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'getNodeInfoLinks',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'activitypubPersonInbox',
    params: { userId: 'ownerId' },
    body: {},
    // Deliveries sign with an HTTP signature, not a credential: an unsigned one is 400 for everyone whose token
    // scope allows the call; the inbox of a user the caller may not see is as missing as the actor (404).
    expected: {
      byOwner: {
        public: [400, 400, 400, 400, 400, 400, 400, 403],
        limited: [404, 400, 400, 400, 400, 400, 403, 403],
        private: [404, 404, 404, 404, 400, 400, 403, 403],
      },
    },
  },
  {
    operation: 'renderMarkdown',
    body: { text: 'Hello *world*' },
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'renderMarkdownRaw',
    body: 'Hello *world*',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'renderMarkup',
    body: { text: 'Hello *world*', mode: 'markdown' },
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'orgGetAll',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'orgCreate',
    body: () => ({ username: uniqueName('org') }),
    expected: { anyOwner: [401, 201, 201, 201, 201, 201, 201, 403] },
  },
  {
    operation: 'orgListCurrentUserOrgs',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userListTeams',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userGetCurrent',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userGetQuota',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userCheckQuota',
    query: { subject: 'size:all' },
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userListQuotaArtifacts',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userListQuotaAttachments',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userListQuotaPackages',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'createCurrentUserRepo',
    body: () => ({ name: uniqueName('repo') }),
    expected: { anyOwner: [401, 201, 201, 201, 201, 201, 201, 403] },
  },
  {
    operation: 'repoMigrate',
    body: () => ({ clone_addr: 'http://127.0.0.1:1/x.git', repo_name: uniqueName('repo') }),
    expected: { anyOwner: [401, 422, 422, 422, 422, 422, 422, 403] },
  },
  {
    operation: 'repoSearch',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'issueSearchIssues',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'notifyGetList',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'notifyNewAvailable',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'notifyReadList',
    expected: { anyOwner: [401, 205, 205, 205, 205, 205, 205, 403] },
  },
  {
    operation: 'notifyGetThread',
    params: { id: 'thread' },
    // A thread of the public owner: another user's thread is 403, site admins may read it.
    expected: { anyOwner: [401, 403, 403, 403, 200, 200, 200, 200] },
  },
  {
    operation: 'notifyReadThread',
    params: { id: 'thread' },
    expected: { anyOwner: [401, 403, 403, 403, 205, 205, 205, 403] },
  },
  {
    operation: 'activitypubPerson',
    owner: 'user',
    params: { userId: 'ownerId' },
    // The actor of a user the caller may not see is 404 (Forgejo serves any id's actor, limited and private users too).
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'orgListUserOrgs',
    owner: 'user',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  // Token routes need the account's password (Forgejo: reqSelfOrAdmin, reqBasicOrRevProxyAuth on the whole group),
  // so every caller here, signing in with a token, is refused: 403 when not the user (nor a site admin), else 401.
  {
    operation: 'userGetTokens',
    owner: 'user',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 401, 401, 401, 401],
        limited: [404, 403, 403, 403, 401, 401, 403, 401],
        private: [404, 404, 404, 404, 401, 401, 403, 401],
      },
    },
  },
  {
    operation: 'userCreateToken',
    owner: 'user',
    body: () => ({ name: uniqueName('token'), scopes: ['read:user'] }),
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 401, 401, 401, 403],
        limited: [404, 403, 403, 403, 401, 401, 403, 403],
        private: [404, 404, 404, 404, 401, 401, 403, 403],
      },
    },
  },
  {
    operation: 'userDeleteAccessToken',
    owner: 'user',
    params: { token: 'new:token' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 401, 401, 401, 403],
        limited: [404, 403, 403, 403, 401, 401, 403, 403],
        private: [404, 404, 404, 404, 401, 401, 403, 403],
      },
    },
  },
  // The user directory and a user's public lists (Forgejo: UserAssignmentAPI, checkTokenPublicOnly): whoever sees
  // the user, the public-only token only a public user.
  {
    operation: 'userGet',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListRepos',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListStarred',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListSubscriptions',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userSearch',
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  // The caller's own lists, keys and addresses (/user group: reqToken, user scope).
  {
    operation: 'userCurrentListRepos',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userCurrentListKeys',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userCurrentListStarred',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userCurrentListSubscriptions',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userListEmails',
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userCurrentPostKey',
    body: () => ({ key: newPublicKey(), title: uniqueName('key') }),
    expected: { anyOwner: [401, 201, 201, 201, 201, 201, 201, 403] },
  },
  {
    // The key is the organization account's, none of the callers': each is refused it (403), site admins too.
    operation: 'userCurrentDeleteKey',
    params: { id: 'new:publicKey' },
    expected: { anyOwner: [401, 403, 403, 403, 403, 403, 403, 403] },
  },
  {
    operation: 'userAddEmail',
    body: () => ({ emails: [`${uniqueName('mail')}@example.com`] }),
    expected: { anyOwner: [401, 201, 201, 201, 201, 201, 201, 403] },
  },
  {
    operation: 'userDeleteEmail',
    body: { emails: [] },
    expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] },
  },
  // Instance settings are public; the caller's own settings, secrets, variables, runner token, follows and avatar
  // (/user group: reqToken, user scope). Secrets and variables named here are the caller's: one it has not is 404.
  { operation: 'getGeneralAPISettings', expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'getGeneralRepositorySettings', expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'getGeneralUISettings', expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'getUserSettings', expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'updateUserSettings', body: {}, expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 403] } },
  {
    operation: 'updateUserSecret',
    params: { secretname: 'new:variableName' },
    body: { data: 'value' },
    expected: { anyOwner: [401, 201, 201, 201, 201, 201, 201, 403] },
  },
  { operation: 'deleteUserSecret', expected: { anyOwner: [401, 404, 404, 404, 404, 404, 404, 403] } },
  { operation: 'getUserVariablesList', expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'getUserVariable', expected: { anyOwner: [401, 404, 404, 404, 404, 404, 404, 404] } },
  {
    operation: 'createUserVariable',
    params: { variablename: 'new:variableName' },
    body: { value: 'value' },
    expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] },
  },
  {
    operation: 'updateUserVariable',
    body: { value: 'edited' },
    expected: { anyOwner: [401, 404, 404, 404, 404, 404, 404, 403] },
  },
  { operation: 'deleteUserVariable', expected: { anyOwner: [401, 404, 404, 404, 404, 404, 404, 403] } },
  { operation: 'userGetRunnerRegistrationToken', expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'userCurrentListFollowers', expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] } },
  { operation: 'userCurrentListFollowing', expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] } },
  {
    operation: 'userCurrentCheckFollowing',
    params: { username: 'orgMember' },
    expected: { anyOwner: [401, 404, 404, 404, 404, 404, 404, 404] },
  },
  {
    operation: 'userCurrentPutFollow',
    params: { username: 'new:followedUser' },
    expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] },
  },
  {
    operation: 'userCurrentDeleteFollow',
    params: { username: 'new:followedUser' },
    expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] },
  },
  {
    // Forgejo serves any key by id; here only a key whose owner the caller may see (the public organization's).
    operation: 'userCurrentGetKey',
    params: { id: 'new:publicKey' },
    expected: { anyOwner: [401, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'userUpdateAvatar',
    body: { image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' },
    expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] },
  },
  { operation: 'userDeleteAvatar', expected: { anyOwner: [401, 204, 204, 204, 204, 204, 204, 403] } },
  // A user's follows, keys, feed and heatmap (UserAssignmentAPI): whoever sees the user.
  {
    operation: 'userListFollowers',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListFollowing',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListKeys',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userListActivityFeeds',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userGetHeatmapData',
    owner: 'user',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'userCheckFollowing',
    owner: 'user',
    params: { target: 'orgMember' },
    expected: {
      byOwner: {
        public: [404, 404, 404, 404, 404, 404, 404, 404],
        limited: [404, 404, 404, 404, 404, 404, 403, 404],
        private: [404, 404, 404, 404, 404, 404, 403, 404],
      },
    },
  },
  {
    // A public repository of the public organization, by id.
    operation: 'repoGetByID',
    params: { id: 'repoId' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
  {
    operation: 'topicSearch',
    query: { q: 'matrix' },
    expected: { anyOwner: [200, 200, 200, 200, 200, 200, 200, 200] },
  },
];
