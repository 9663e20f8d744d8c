// `npm start`: the compiled server from dist/, rebuilt first if the sources changed.
const path = require('node:path');
const { ensureBuilt, outDir } = require('./build.cjs');

ensureBuilt();
require(path.join(outDir, 'src', 'main.js'));
