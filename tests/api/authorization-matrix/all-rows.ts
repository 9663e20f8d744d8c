// Every row of the matrix, area by area.
import { ADMIN_ROWS } from './admin.table.ts';
import { COLLABORATION_ROWS } from './collaboration.table.ts';
import { INSTANCE_ROWS } from './instance.table.ts';
import type { MatrixRow } from './matrix.ts';
import { ORG_ROWS } from './orgs.table.ts';
import { PACKAGE_ROWS } from './packages.table.ts';
import { REPO_CONTENT_ROWS } from './repo-content.table.ts';
import { REPO_ROWS } from './repos.table.ts';
import { TEAM_ROWS } from './teams.table.ts';

export const ALL_ROWS: readonly MatrixRow[] = [
  ...ORG_ROWS,
  ...TEAM_ROWS,
  ...REPO_ROWS,
  ...REPO_CONTENT_ROWS,
  ...COLLABORATION_ROWS,
  ...PACKAGE_ROWS,
  ...ADMIN_ROWS,
  ...INSTANCE_ROWS,
];
