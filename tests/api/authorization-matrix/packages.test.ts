// Drives every cell of packages.table.ts on this test's database (see world.ts).
import { PACKAGE_ROWS } from './packages.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('packages', PACKAGE_ROWS);
