// dist/anvil.js: the server and everything of its own it may load, with the packages every start loads, as one
// CommonJS file that `npm start` runs from V8's code cache (code-cache.cjs). Packages a start does not load (the
// registries' libraries, say) stay outside, loaded from node_modules when first needed: in the bundle, their
// source would be held in memory from the start.
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const nodeModules = path.join(root, 'node_modules');

/**
 * Left outside even when every start loads them: packages that find files beside their own code (a native addon,
 * pino's worker thread), Prisma's (the client and its runtime must be one copy: their error classes are checked
 * with instanceof), and body-parser, which Anvil loads lazily on purpose (deferred-body-parsers.ts).
 */
const KEEP_OUTSIDE = /^(pino|body-parser|@prisma\/.*)$/;

function installedPackages() {
  const names = [];
  for (const entry of fs.readdirSync(nodeModules)) {
    if (entry.startsWith('.')) continue;
    if (!entry.startsWith('@')) names.push(entry);
    else for (const scoped of fs.readdirSync(path.join(nodeModules, entry))) names.push(`${entry}/${scoped}`);
  }
  return names;
}

function isNativeAddon(name) {
  const dir = path.join(nodeModules, name);
  return fs.existsSync(path.join(dir, 'binding.gyp')) || fs.existsSync(path.join(dir, 'prebuilds'));
}

function bundlable(name) {
  return !KEEP_OUTSIDE.test(name) && fs.existsSync(path.join(nodeModules, name)) && !isNativeAddon(name);
}

/** Bundles `dir`/src/main.js into `file`, taking in those of `packages` that can be. */
function bundle(dir, file, packages) {
  const inside = new Set(packages.filter(bundlable));
  require('esbuild').buildSync({
    entryPoints: [path.join(dir, 'src', 'main.js')],
    outfile: file,
    bundle: true,
    external: installedPackages().filter((name) => !inside.has(name)),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
    // deferred-body-parsers.ts resolves express's own body-parser at run time, wherever express's code is.
    logOverride: { 'require-resolve-not-external': 'silent' },
  });
  // V8 keeps a script's source as one string, of two bytes a character if one character is outside ASCII (a
  // comment's arrow will do): escaped, the bundle costs half the memory. Strings, regular expressions and comments
  // read the same escaped.
  const source = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(
    file,
    source.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

module.exports = { bundle };
