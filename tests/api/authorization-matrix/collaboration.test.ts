// Drives every cell of collaboration.table.ts on this test's database (see world.ts).
import { COLLABORATION_ROWS } from './collaboration.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('collaboration', COLLABORATION_ROWS);
