// The stand-in for an account that no longer exists, shown where a record still names it (Forgejo:
// models/user/user_system.go NewGhostUser: id -1, name "Ghost").
import type { User } from './prisma.ts';

export const GHOST_USER_ID = -1;

export function ghostUser(): User {
  const epoch = new Date(0);
  return {
    id: GHOST_USER_ID,
    type: 0,
    name: 'Ghost',
    lowerName: 'ghost',
    fullName: '',
    email: '',
    keepEmailPrivate: true,
    passwordHash: '',
    mustChangePassword: false,
    loginType: 0,
    loginSourceId: 0,
    loginName: '',
    location: '',
    website: '',
    description: '',
    pronouns: '',
    language: '',
    visibility: 0,
    isActive: false,
    isAdmin: false,
    isRestricted: false,
    prohibitLogin: true,
    allowGitHook: false,
    allowImportLocal: false,
    allowCreateOrganization: false,
    maxRepoCreation: 0,
    avatar: '',
    hideActivity: false,
    repoAdminChangeTeamAccess: false,
    numFollowers: 0,
    numFollowing: 0,
    numStars: 0,
    numRepos: 0,
    lastLoginAt: null,
    createdAt: epoch,
    updatedAt: epoch,
  };
}
