// Drives every cell of orgs.table.ts on this test's database (see world.ts).
import { ORG_ROWS } from './orgs.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('orgs', ORG_ROWS);
