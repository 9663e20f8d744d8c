// `npm start`: the compiled server in dist/, built by `npm ci` or `npm run build`. Nothing is compiled or written
// at start, so a read-only checkout and several instances on one checkout start alike.
const fs = require('node:fs');
const path = require('node:path');
const { isCurrent, outDir } = require('./build.cjs');

const main = path.join(outDir, 'src', 'main.js');
if (!fs.existsSync(main)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
require(main);
// Checked once the server has started: hashing every source file's stamp would add tens of milliseconds to a start.
setTimeout(() => {
  if (!isCurrent()) console.error('warning: dist/ was compiled from other sources than these: run `npm run build`');
}, 2000).unref();
