// The version string clients see; Forgejo clients parse it to decide which features to use.
export const ANVIL_VERSION = '10.0.3+anvil';
