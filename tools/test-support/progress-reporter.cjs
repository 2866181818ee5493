// A Jest reporter that keeps in a file (HEARTH_TEST_PROGRESS; without it, it does nothing) the run's suite count, the suites running with when each
// started, and each finished suite's outcome. tools/test.mjs reads it to end a run whose suites are all done but
// whose Jest does not exit, and to name a suite that stalls; it summarises from it when Jest had to be ended.
'use strict';
const { writeFileSync } = require('node:fs');

class ProgressReporter {
  constructor() {
    this.file = process.env.HEARTH_TEST_PROGRESS;
    this.state = { total: 0, running: {}, done: [] };
  }

  onRunStart(results) {
    this.state.total = results.numTotalTestSuites;
    this.save();
  }

  onTestFileStart(test) {
    this.state.running[test.path] = Date.now();
    this.save();
  }

  onTestFileResult(test, result) {
    delete this.state.running[test.path];
    this.state.done.push({
      name: test.path,
      passed: result.numPassingTests,
      failed: result.numFailingTests,
      // A suite that failed to load ran no test but fails the run.
      loadError: result.testExecError ? String(result.testExecError.message ?? result.testExecError) : null,
      failures: result.testResults.filter((t) => t.status === 'failed').map((t) => ({ fullName: t.fullName, failureMessages: t.failureMessages })),
    });
    this.save();
  }

  save() {
    if (this.file) writeFileSync(this.file, JSON.stringify(this.state));
  }
}

module.exports = ProgressReporter;
