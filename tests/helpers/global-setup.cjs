// Before any test file: the compiled copy in dist/ is current, since tests start servers, the CLI and worker
// threads from it rather than transpiling the sources again in every process.
module.exports = function globalSetup() {
  require('../../scripts/build.cjs').ensureBuilt();
};
