// Repositories of an organization: /repos/{owner}/{repo}/… (repository, issue and notification scopes) and git smart
// HTTP. Columns: see matrix.ts. A repository is visible to whoever may read it: everyone who can see its owner when it
// is public; the write team, owners and site admins when it is private (the org member's team holds no repositories).
// A public-only token is refused a private repository whatever its owner's visibility, and is not refused a public
// repository of a limited or private owner (Forgejo checks the repository only).
import { uniqueName } from '../../helpers/factories.ts';
import type { MatrixRow } from './matrix.ts';

//                                         anon outsd member team owner admin pubOnly readOnly
export const REPO_ROWS: readonly MatrixRow[] = [
  {
    operation: 'repoGet',
    expected: {
      byRepo: {
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
  },
  {
    operation: 'repoEdit',
    body: { description: 'edited' },
    expected: {
      byRepo: {
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
  },
  {
    operation: 'repoDelete',
    params: { repo: 'new:repo' },
    expected: {
      byRepo: {
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
  },
  {
    operation: 'issueGetIssue',
    // The write team holds the code and packages units only: a private repository's issues are invisible to it
    // (404), and creating one is refused (403, reqRepoReader). A public repository's units are readable by everyone
    // who sees it.
    expected: {
      byRepo: {
        public: {
          public: [200, 200, 200, 200, 200, 200, 200, 200],
          limited: [404, 200, 200, 200, 200, 200, 200, 200],
          private: [404, 404, 200, 200, 200, 200, 200, 200],
        },
        private: {
          public: [404, 404, 404, 404, 200, 200, 403, 200],
          limited: [404, 404, 404, 404, 200, 200, 403, 200],
          private: [404, 404, 404, 404, 200, 200, 403, 200],
        },
      },
    },
  },
  {
    operation: 'issueCreateIssue',
    body: { title: 'an issue' },
    expected: {
      byRepo: {
        public: {
          public: [401, 201, 201, 201, 201, 201, 201, 403],
          limited: [404, 201, 201, 201, 201, 201, 201, 403],
          private: [404, 404, 201, 201, 201, 201, 201, 403],
        },
        private: {
          public: [404, 404, 404, 403, 201, 201, 403, 403],
          limited: [404, 404, 404, 403, 201, 201, 403, 403],
          private: [404, 404, 404, 403, 201, 201, 403, 403],
        },
      },
    },
  },
  {
    operation: 'issueEditIssue',
    body: { body: 'edited' },
    // The poster or a writer of issues may edit (Forgejo answers 201). An issue the caller cannot read is 404 (Forgejo
    // answers 403 after loading it, which tells the team member it exists).
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 403, 201, 201, 201, 403],
          limited: [404, 403, 403, 403, 201, 201, 201, 403],
          private: [404, 404, 403, 403, 201, 201, 201, 403],
        },
        private: {
          public: [404, 404, 404, 404, 201, 201, 403, 403],
          limited: [404, 404, 404, 404, 201, 201, 403, 403],
          private: [404, 404, 404, 404, 201, 201, 403, 403],
        },
      },
    },
  },
  {
    operation: 'issueCreateComment',
    body: { body: 'a comment' },
    expected: {
      byRepo: {
        public: {
          public: [401, 201, 201, 201, 201, 201, 201, 403],
          limited: [404, 201, 201, 201, 201, 201, 201, 403],
          private: [404, 404, 201, 201, 201, 201, 201, 403],
        },
        private: {
          public: [404, 404, 404, 404, 201, 201, 403, 403],
          limited: [404, 404, 404, 404, 201, 201, 403, 403],
          private: [404, 404, 404, 404, 201, 201, 403, 403],
        },
      },
    },
  },
  {
    operation: 'repoCreatePullRequest',
    body: { head: 'main', base: 'main', title: 'a pull request' },
    // Whoever may open one gets past the guards to the 422 of a pull request from a branch into itself.
    expected: {
      byRepo: {
        public: {
          public: [401, 422, 422, 422, 422, 422, 422, 403],
          limited: [404, 422, 422, 422, 422, 422, 422, 403],
          private: [404, 404, 422, 422, 422, 422, 422, 403],
        },
        private: {
          public: [404, 404, 404, 403, 422, 422, 403, 403],
          limited: [404, 404, 404, 403, 422, 422, 403, 403],
          private: [404, 404, 404, 403, 422, 422, 403, 403],
        },
      },
    },
  },
  {
    operation: 'notifyGetRepoList',
    expected: {
      byRepo: {
        public: {
          public: [401, 200, 200, 200, 200, 200, 200, 200],
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
  },
  {
    operation: 'notifyReadRepoList',
    expected: {
      byRepo: {
        public: {
          public: [401, 205, 205, 205, 205, 205, 205, 403],
          limited: [404, 205, 205, 205, 205, 205, 205, 403],
          private: [404, 404, 205, 205, 205, 205, 205, 403],
        },
        private: {
          public: [404, 404, 404, 205, 205, 205, 403, 403],
          limited: [404, 404, 404, 205, 205, 205, 403, 403],
          private: [404, 404, 404, 205, 205, 205, 403, 403],
        },
      },
    },
  },
  {
    operation: 'userCurrentCheckSubscription',
    // 200 when the caller watches the repository (its creator, the owner, does), else 404.
    expected: {
      byRepo: {
        public: {
          public: [401, 404, 404, 404, 200, 404, 200, 200],
          limited: [404, 404, 404, 404, 200, 404, 200, 200],
          private: [404, 404, 404, 404, 200, 404, 200, 200],
        },
        private: {
          public: [404, 404, 404, 404, 200, 404, 403, 200],
          limited: [404, 404, 404, 404, 200, 404, 403, 200],
          private: [404, 404, 404, 404, 200, 404, 403, 200],
        },
      },
    },
  },
  {
    operation: 'userCurrentPutSubscription',
    expected: {
      byRepo: {
        public: {
          public: [401, 200, 200, 200, 200, 200, 200, 403],
          limited: [404, 200, 200, 200, 200, 200, 200, 403],
          private: [404, 404, 200, 200, 200, 200, 200, 403],
        },
        private: {
          public: [404, 404, 404, 200, 200, 200, 403, 403],
          limited: [404, 404, 404, 200, 200, 200, 403, 403],
          private: [404, 404, 404, 200, 200, 200, 403, 403],
        },
      },
    },
  },
  {
    operation: 'userCurrentDeleteSubscription',
    expected: {
      byRepo: {
        public: {
          public: [401, 204, 204, 204, 204, 204, 204, 403],
          limited: [404, 204, 204, 204, 204, 204, 204, 403],
          private: [404, 404, 204, 204, 204, 204, 204, 403],
        },
        private: {
          public: [404, 404, 404, 204, 204, 204, 403, 403],
          limited: [404, 404, 404, 204, 204, 204, 403, 403],
          private: [404, 404, 404, 204, 204, 204, 403, 403],
        },
      },
    },
  },
  {
    operation: 'gitInfoRefs',
    params: { repo: 'repoGit' },
    query: { service: 'git-upload-pack' },
    // git smart HTTP (Forgejo: routers/web/repo/githttp.go): an anonymous caller who may not fetch is challenged
    // (401) so git asks for credentials; a signed-in one is 404. Token scopes follow the git service (fetch: read,
    // push: write), not the HTTP method.
    expected: {
      byRepo: {
        public: {
          public: [200, 200, 200, 200, 200, 200, 200, 200],
          limited: [401, 200, 200, 200, 200, 200, 200, 200],
          private: [401, 404, 200, 200, 200, 200, 200, 200],
        },
        private: {
          public: [401, 404, 404, 200, 200, 200, 403, 200],
          limited: [401, 404, 404, 200, 200, 200, 403, 200],
          private: [401, 404, 404, 200, 200, 200, 403, 200],
        },
      },
    },
  },
  {
    operation: 'gitUploadPack',
    params: { repo: 'repoGit' },
    expected: {
      byRepo: {
        public: {
          public: [200, 200, 200, 200, 200, 200, 200, 200],
          limited: [401, 200, 200, 200, 200, 200, 200, 200],
          private: [401, 404, 200, 200, 200, 200, 200, 200],
        },
        private: {
          public: [401, 404, 404, 200, 200, 200, 403, 200],
          limited: [401, 404, 404, 200, 200, 200, 403, 200],
          private: [401, 404, 404, 200, 200, 200, 403, 200],
        },
      },
    },
  },
  {
    operation: 'gitReceivePack',
    params: { repo: 'repoGit' },
    // Pushing needs write on code and a signed-in caller.
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 200, 200, 200, 200, 403],
          limited: [401, 403, 403, 200, 200, 200, 200, 403],
          private: [401, 404, 403, 200, 200, 200, 200, 403],
        },
        private: {
          public: [401, 404, 404, 200, 200, 200, 403, 403],
          limited: [401, 404, 404, 200, 200, 200, 403, 403],
          private: [401, 404, 404, 200, 200, 200, 403, 403],
        },
      },
    },
  },
  {
    operation: 'gitInfoRefs',
    params: { repo: 'repoGit' },
    query: { service: 'git-receive-pack' },
    // The ref advertisement before a push asks what the push does.
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 200, 200, 200, 200, 403],
          limited: [401, 403, 403, 200, 200, 200, 200, 403],
          private: [401, 404, 403, 200, 200, 200, 200, 403],
        },
        private: {
          public: [401, 404, 404, 200, 200, 200, 403, 403],
          limited: [401, 404, 404, 200, 200, 200, 403, 403],
          private: [401, 404, 404, 200, 200, 200, 403, 403],
        },
      },
    },
  },
  // Who starred or watches a repository: whoever sees it (repoAssignment).
  {
    operation: 'repoListStargazers',
    expected: {
      byRepo: {
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
  },
  {
    operation: 'repoListSubscribers',
    expected: {
      byRepo: {
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
  },
  // Starring: a repository the caller sees (404 first), then sign-in. A fresh repository is starred by nobody, so the
  // check answers 404 to everyone who sees it.
  {
    operation: 'userCurrentCheckStarring',
    params: { repo: 'new:repo' },
    expected: {
      byRepo: {
        public: {
          public: [401, 404, 404, 404, 404, 404, 404, 404],
          limited: [404, 404, 404, 404, 404, 404, 404, 404],
          private: [404, 404, 404, 404, 404, 404, 404, 404],
        },
        private: {
          public: [404, 404, 404, 404, 404, 404, 403, 404],
          limited: [404, 404, 404, 404, 404, 404, 403, 404],
          private: [404, 404, 404, 404, 404, 404, 403, 404],
        },
      },
    },
  },
  {
    operation: 'userCurrentPutStar',
    expected: {
      byRepo: {
        public: {
          public: [401, 204, 204, 204, 204, 204, 204, 403],
          limited: [404, 204, 204, 204, 204, 204, 204, 403],
          private: [404, 404, 204, 204, 204, 204, 204, 403],
        },
        private: {
          public: [404, 404, 404, 204, 204, 204, 403, 403],
          limited: [404, 404, 404, 204, 204, 204, 403, 403],
          private: [404, 404, 404, 204, 204, 204, 403, 403],
        },
      },
    },
  },
  {
    operation: 'userCurrentDeleteStar',
    expected: {
      byRepo: {
        public: {
          public: [401, 204, 204, 204, 204, 204, 204, 403],
          limited: [404, 204, 204, 204, 204, 204, 204, 403],
          private: [404, 404, 204, 204, 204, 204, 204, 403],
        },
        private: {
          public: [404, 404, 404, 204, 204, 204, 403, 403],
          limited: [404, 404, 404, 204, 204, 204, 403, 403],
          private: [404, 404, 404, 204, 204, 204, 403, 403],
        },
      },
    },
  },
  // Branches and tags: readers of code list and get, writers of code (signed in) create (from the default branch)
  // and delete. The named branch or tag does not exist, so gets and deletes are 404 past the guards.
  {
    operation: 'repoListBranches',
    expected: {
      byRepo: {
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
  },
  {
    operation: 'repoListTags',
    expected: {
      byRepo: {
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
  },
  {
    operation: 'repoGetBranch',
    expected: {
      byRepo: {
        public: {
          public: [404, 404, 404, 404, 404, 404, 404, 404],
          limited: [404, 404, 404, 404, 404, 404, 404, 404],
          private: [404, 404, 404, 404, 404, 404, 404, 404],
        },
        private: {
          public: [404, 404, 404, 404, 404, 404, 403, 404],
          limited: [404, 404, 404, 404, 404, 404, 403, 404],
          private: [404, 404, 404, 404, 404, 404, 403, 404],
        },
      },
    },
  },
  {
    operation: 'repoGetTag',
    expected: {
      byRepo: {
        public: {
          public: [404, 404, 404, 404, 404, 404, 404, 404],
          limited: [404, 404, 404, 404, 404, 404, 404, 404],
          private: [404, 404, 404, 404, 404, 404, 404, 404],
        },
        private: {
          public: [404, 404, 404, 404, 404, 404, 403, 404],
          limited: [404, 404, 404, 404, 404, 404, 403, 404],
          private: [404, 404, 404, 404, 404, 404, 403, 404],
        },
      },
    },
  },
  {
    operation: 'repoCreateBranch',
    body: () => ({ new_branch_name: uniqueName('branch') }),
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 201, 201, 201, 201, 403],
          limited: [404, 403, 403, 201, 201, 201, 201, 403],
          private: [404, 404, 403, 201, 201, 201, 201, 403],
        },
        private: {
          public: [404, 404, 404, 201, 201, 201, 403, 403],
          limited: [404, 404, 404, 201, 201, 201, 403, 403],
          private: [404, 404, 404, 201, 201, 201, 403, 403],
        },
      },
    },
  },
  {
    operation: 'repoCreateTag',
    body: () => ({ tag_name: uniqueName('tag') }),
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 201, 201, 201, 201, 403],
          limited: [404, 403, 403, 201, 201, 201, 201, 403],
          private: [404, 404, 403, 201, 201, 201, 201, 403],
        },
        private: {
          public: [404, 404, 404, 201, 201, 201, 403, 403],
          limited: [404, 404, 404, 201, 201, 201, 403, 403],
          private: [404, 404, 404, 201, 201, 201, 403, 403],
        },
      },
    },
  },
  {
    operation: 'repoDeleteBranch',
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 404, 404, 404, 404, 403],
          limited: [404, 403, 403, 404, 404, 404, 404, 403],
          private: [404, 404, 403, 404, 404, 404, 404, 403],
        },
        private: {
          public: [404, 404, 404, 404, 404, 404, 403, 403],
          limited: [404, 404, 404, 404, 404, 404, 403, 403],
          private: [404, 404, 404, 404, 404, 404, 403, 403],
        },
      },
    },
  },
  {
    operation: 'repoDeleteTag',
    expected: {
      byRepo: {
        public: {
          public: [401, 403, 403, 404, 404, 404, 404, 403],
          limited: [404, 403, 403, 404, 404, 404, 404, 403],
          private: [404, 404, 403, 404, 404, 404, 404, 403],
        },
        private: {
          public: [404, 404, 404, 404, 404, 404, 403, 403],
          limited: [404, 404, 404, 404, 404, 404, 403, 403],
          private: [404, 404, 404, 404, 404, 404, 403, 403],
        },
      },
    },
  },
];
