// `npm start`: the compiled server, bundled as dist/anvil.js and run from V8's code cache, both written by `npm ci`
// or `npm run build`. Nothing is compiled or written at start, so a read-only checkout and several instances on one
// checkout start alike.
const fs = require('node:fs');
const path = require('node:path');
const { BUNDLE, isCurrent, outDir } = require('./build.cjs');
const { runWithCodeCache } = require('./code-cache.cjs');

const bundle = path.join(outDir, BUNDLE);
if (!fs.existsSync(bundle)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(1);
}
runWithCodeCache(bundle, process.env.ANVIL_WARM_START === '1');
// Checked once the server has started: hashing every source file's stamp would add tens of milliseconds to a start.
setTimeout(() => {
  if (!isCurrent()) console.error('warning: dist/ was compiled from other sources than these: run `npm run build`');
}, 2000).unref();
