// Writes the run's pass/fail counts to $ANVIL_TEST_SUMMARY (used by .ci/run to print one closing line).
const fs = require('node:fs');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.ANVIL_TEST_SUMMARY;
    if (!file) return;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    fs.writeFileSync(file, JSON.stringify({ passed: results.numPassedTests, failed }));
  }
}

module.exports = SummaryReporter;
