// Compiles the TypeScript of src/ and generated/ to JavaScript under dist/ (same layout), so a start neither loads
// a compiler nor transpiles ~400 files, then bundles the server for `npm start` with its code cache (bundle.cjs,
// code-cache.cjs). `npm ci` builds it (postinstall), `npm run build` again after a change; the tests build it when
// stale, since they start servers and the CLI from it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { bundle } = require('./bundle.cjs');
const { loadedPackagesFileOf } = require('./code-cache.cjs');

const root = path.resolve(__dirname, '..');
const outDir = path.join(root, 'dist');
const stampFile = path.join(outDir, '.stamp');
/** The bundled server, under dist/. */
const BUNDLE = 'anvil.js';
const inputs = ['src', 'generated'];
const compileOptions = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022', rewriteRelativeImportExtensions: true },
  // import() becomes require(): Prisma's client imports its 2 MiB WebAssembly, as base64 in a CommonJS file, through
  // import(), and node's ESM loader scans all of it for exports first (about 75 ms of a start).
  module: { type: 'commonjs', ignoreDynamic: false },
};

function sourceFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(full);
    }
  };
  for (const input of inputs) if (fs.existsSync(path.join(root, input))) walk(path.join(root, input));
  return files.sort();
}

/** Changes whenever a source file is added, removed or written, or these options change. */
function sourceStamp(files) {
  const hash = crypto.createHash('sha256').update(JSON.stringify(compileOptions));
  for (const file of files) {
    const { mtimeMs, size } = fs.statSync(file);
    hash.update(`${path.relative(root, file)}\0${mtimeMs}\0${size}\n`);
  }
  return hash.digest('hex');
}

function build(files = sourceFiles()) {
  const { transformFileSync } = require('@swc/core');
  // Written beside dist/ and swapped in whole, so a process starting from dist/ (or another build, as when test
  // runs start side by side) never sees it half-written.
  const building = `${outDir}.building-${process.pid}`;
  fs.rmSync(building, { recursive: true, force: true });
  for (const file of files) {
    const target = path.join(building, path.relative(root, file)).replace(/\.ts$/, '.js');
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, transformFileSync(file, compileOptions).code);
  }
  writeQueryCompilers(building);
  bundle(building, path.join(building, BUNDLE), []);
  fs.writeFileSync(path.join(building, '.stamp'), sourceStamp(files));
  const previous = `${outDir}.previous-${process.pid}`;
  if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
  fs.renameSync(building, outDir);
  fs.rmSync(previous, { recursive: true, force: true });
  bundleWarm();
}

/**
 * After the swap, since a warm start runs from dist/ as npm start does: a first warm start shows which packages
 * every start loads, and the bundle takes them in; a second writes the code cache of that bundle. A start between
 * them finds no cache that fits and compiles the bundle.
 */
function bundleWarm() {
  const file = path.join(outDir, BUNDLE);
  const loaded = loadedPackagesFileOf(file);
  if (!warmStart()) return;
  const packages = JSON.parse(fs.readFileSync(loaded, 'utf8'));
  fs.rmSync(loaded);
  const next = `${file}.next-${process.pid}`;
  bundle(outDir, next, packages);
  fs.renameSync(next, file);
  if (warmStart()) fs.rmSync(loaded);
}

function warmStart() {
  const warm = spawnSync(process.execPath, [path.join(__dirname, 'warm-start.cjs')], { stdio: 'inherit' });
  if (warm.status !== 0) console.warn('build: the warm start failed, so `npm start` compiles the server each time');
  return warm.status === 0;
}

/** Prisma's query compilers, decoded once here rather than at every start (query-compiler-wasm.ts). */
function writeQueryCompilers(building) {
  const wasm = require(path.join(building, 'src', 'infra', 'database', 'query-compiler-wasm.js'));
  for (const provider of wasm.QUERY_COMPILER_PROVIDERS) {
    const file = wasm.queryCompilerFile(building, provider);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, wasm.decodeQueryCompiler(provider));
  }
}

/** Whether dist/ was compiled from exactly the sources on disk. */
function isCurrent(files = sourceFiles()) {
  return fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === sourceStamp(files);
}

/** Builds unless dist/ is current. */
function ensureBuilt() {
  const files = sourceFiles();
  if (!isCurrent(files)) build(files);
}

module.exports = { BUNDLE, build, ensureBuilt, isCurrent, outDir };

if (require.main === module) build();
