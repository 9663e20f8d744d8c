// Packages: the /api/v1/packages/{owner} API (signed in for every call) and the generic registry under /api/packages
// (anonymous downloads of what anyone may read). Columns: see matrix.ts. Of an organization: read for whoever may see
// it, write for teams with write on the packages unit (the write team), owners and site admins. Of a user: the user,
// site admins, and readers of a public or limited user.
// An owner the caller may not see is 404 on the registry too, anonymous or not (Forgejo challenges an anonymous caller
// with 401 there, as for git, so package clients send credentials; here they must send them up front).
// A public-only token is refused a package of a limited owner too (BEHAVIOR.md: targets that are not public answer
// 403; Forgejo's code refuses only private owners' packages).
import type { MatrixRow } from './matrix.ts';

//                                         anon outsd member team owner admin pubOnly readOnly
export const PACKAGE_ROWS: readonly MatrixRow[] = [
  {
    operation: 'listPackages',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'getPackage',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'listPackageFiles',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'deletePackage',
    params: { name: 'new:package' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 204, 204, 204, 204, 403],
        limited: [404, 403, 403, 204, 204, 204, 403, 403],
        private: [404, 404, 403, 204, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'genericPackageDownload',
    expected: {
      byOwner: {
        public: [200, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 200, 200, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'genericPackageUpload',
    params: { packageversion: 'new:packageVersion' },
    body: 'package',
    expected: {
      byOwner: {
        public: [401, 403, 403, 201, 201, 201, 201, 403],
        limited: [404, 403, 403, 201, 201, 201, 403, 403],
        private: [404, 404, 403, 201, 201, 201, 403, 403],
      },
    },
  },
  {
    operation: 'genericPackageDelete',
    params: { packagename: 'new:package' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 204, 204, 204, 204, 403],
        limited: [404, 403, 403, 204, 204, 204, 403, 403],
        private: [404, 404, 403, 204, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'genericPackageDeleteFile',
    params: { packagename: 'new:package' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 204, 204, 204, 204, 403],
        limited: [404, 403, 403, 204, 204, 204, 403, 403],
        private: [404, 404, 403, 204, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'listPackages',
    owner: 'user',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'getPackage',
    owner: 'user',
    expected: {
      byOwner: {
        public: [401, 200, 200, 200, 200, 200, 200, 200],
        limited: [404, 200, 200, 200, 200, 200, 403, 200],
        private: [404, 404, 404, 404, 200, 200, 403, 200],
      },
    },
  },
  {
    operation: 'deletePackage',
    owner: 'user',
    params: { name: 'new:package' },
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 204, 204, 204, 403],
        limited: [404, 403, 403, 403, 204, 204, 403, 403],
        private: [404, 404, 404, 404, 204, 204, 403, 403],
      },
    },
  },
  {
    operation: 'genericPackageDownload',
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
    operation: 'genericPackageUpload',
    owner: 'user',
    params: { packageversion: 'new:packageVersion' },
    body: 'package',
    expected: {
      byOwner: {
        public: [401, 403, 403, 403, 201, 201, 201, 403],
        limited: [404, 403, 403, 403, 201, 201, 403, 403],
        private: [404, 404, 404, 404, 201, 201, 403, 403],
      },
    },
  },
];
