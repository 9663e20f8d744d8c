// Drives every cell of teams.table.ts on this test's database (see world.ts).
import { TEAM_ROWS } from './teams.table.ts';
import { describeMatrix } from './world.ts';

describeMatrix('teams', TEAM_ROWS);
