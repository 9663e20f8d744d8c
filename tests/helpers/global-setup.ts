// Before any test file: dist/ is current (tests start servers, the CLI and worker threads from it rather than
// transpiling the sources again in every process), and this run's template database is migrated.
import { prepareTemplateDatabase } from './template-database.ts';

export default async function globalSetup(): Promise<void> {
  require('../../scripts/build.cjs').ensureBuilt();
  await prepareTemplateDatabase();
}
