// Drives every cell of repos.table.ts on this test's database (see world.ts).
import { REPO_ROWS } from './repos.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('repos', REPO_ROWS);
