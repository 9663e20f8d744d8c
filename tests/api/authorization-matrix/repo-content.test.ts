// Drives every cell of repo-content.table.ts on this test's database (see world.ts).
import { REPO_CONTENT_ROWS } from './repo-content.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('repo content', REPO_CONTENT_ROWS);
