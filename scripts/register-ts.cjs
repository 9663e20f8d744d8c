// Lets `node -r ./scripts/register-ts.cjs file.ts` run TypeScript: swc strips types in memory, nothing is written.
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const options = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename });
  module._compile(code, filename);
};
process.setSourceMapsEnabled?.(true);
