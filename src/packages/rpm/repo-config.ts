// The .repo file dnf reads a repository's settings from (dnf.conf(5), Forgejo: routers/api/packages/rpm
// GetRepositoryConfig): one section per owner and group, the group's base URL, the key and both signature checks.
export interface RepoConfigInput {
  /** `<ROOT_URL>api/packages/<owner>/rpm`, without a trailing slash. */
  registryUrl: string;
  ownerName: string;
  appName: string;
  /** "" for the ungrouped repository, else its path segments joined by `/`. */
  group: string;
}

export function repoConfig({ registryUrl, ownerName, appName, group }: RepoConfigInput): string {
  const parts = group === '' ? [] : group.split('/');
  const id = ['gitea', ownerName.toLowerCase(), ...parts].join('-');
  return [
    `[${id}]`,
    `name=${[ownerName, appName, ...parts].join(' - ')}`,
    `baseurl=${[registryUrl, ...parts].join('/')}`,
    'enabled=1',
    'gpgcheck=1',
    'repo_gpgcheck=1',
    `gpgkey=${registryUrl}/repository.key`,
    '',
  ].join('\n');
}
