// Prints how many operations of the contract are implemented: `implemented/total` on the last line.
import { REGISTRY, implementedCount } from '../src/api/registry.ts';

const missing = Object.entries(REGISTRY)
  .filter(([, route]) => !route.implemented)
  .map(([id]) => id);
if (process.argv.includes('--missing')) console.log(missing.sort().join('\n'));
const { implemented, total } = implementedCount();
console.log(`${implemented}/${total}`);
