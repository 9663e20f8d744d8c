// Drives every cell of instance.table.ts on this test's database (see world.ts).
import { INSTANCE_ROWS } from './instance.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('instance', INSTANCE_ROWS);
