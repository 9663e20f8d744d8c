// Drives every cell of admin.table.ts on this test's database (see world.ts).
import { ADMIN_ROWS } from './admin.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('admin', ADMIN_ROWS);
