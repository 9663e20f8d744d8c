// Prints the ten slowest test files after a run, and writes the run's pass/fail counts to $ANVIL_TEST_SUMMARY
// (used by .ci/run to print one closing line).
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const slowest = results.testResults
      .map((file) => ({
        file: path.relative(process.cwd(), file.testFilePath),
        ms: file.perfStats.end - file.perfStats.start,
      }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    if (slowest.length > 1) {
      console.log('\nSlowest test files:');
      for (const { file, ms } of slowest) console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}`);
    }
    const file = process.env.ANVIL_TEST_SUMMARY;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    fs.writeFileSync(file, JSON.stringify({ passed: results.numPassedTests, failed }));
  }
}

module.exports = SummaryReporter;
