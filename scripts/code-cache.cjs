// Runs the bundled server (dist/anvil.js) as a CommonJS module from V8's code cache, which the build wrote beside it
// after a warm start: V8 then deserializes the bytecode of every function that start compiled instead of parsing
// and compiling 7 MiB of JavaScript again (about 120 ms of a cold start here). V8 refuses a cache made by another
// node or under other V8 options, and the bundle then compiles as any module would.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

function cacheFileOf(file) {
  return `${file}.code-cache`;
}

/** The packages a warm start loaded from node_modules, which the next bundle takes in (bundle.cjs). */
function loadedPackagesFileOf(file) {
  return `${file}.loaded-packages.json`;
}

function compile(file) {
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFileOf(file));
  } catch {
    cachedData = undefined;
  }
  return new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
}

function writeWhole(file, data) {
  fs.writeFileSync(`${file}.partial`, data);
  // Readable as the bundle is, whatever umask the server set for its own files.
  fs.chmodSync(`${file}.partial`, 0o644);
  fs.renameSync(`${file}.partial`, file);
}

/** As the process exits: V8's cache of all it compiled from `file`, and the packages it loaded. */
function recordWarmStart(file, script) {
  process.once('exit', () => {
    writeWhole(cacheFileOf(file), script.createCachedData());
    const packages = new Set();
    for (const loaded of Object.keys(require.cache)) {
      const name = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(loaded)?.[1];
      if (name) packages.add(name);
    }
    writeWhole(loadedPackagesFileOf(file), JSON.stringify([...packages].sort()));
  });
}

/** Runs `file` as a module; on the build's warm start (`warm`), records what it compiled and loaded. */
function runWithCodeCache(file, warm) {
  const script = compile(file);
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  require.cache[file] = module;
  if (warm) recordWarmStart(file, script);
  const wrapper = script.runInThisContext();
  wrapper.call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
}

/** Whether this process's V8 takes the cache the build wrote for `file` (tests: the build and npm start agree). */
function cacheAccepted(file) {
  return fs.existsSync(cacheFileOf(file)) && !compile(file).cachedDataRejected;
}

module.exports = { cacheAccepted, cacheFileOf, loadedPackagesFileOf, runWithCodeCache };
