// A jest reporter: after the run, lists the tests that were skipped and why, so a run that could
// not test everything says so. Tests carry their reason in their name as `[skipped: …]`
// (test/support/skip.ts); suites the configuration leaves out are passed in as `notRun`.
const { relative } = require('node:path');

const REASON = /\[skipped: ([^\]]+)\]/;

class SkippedTestsReporter {
  constructor(globalConfig, options = {}) {
    this.rootDir = globalConfig.rootDir;
    this.notRun = options.notRun ?? [];
  }

  onRunComplete(_contexts, results) {
    const byReason = new Map();
    for (const file of results.testResults) {
      for (const test of file.testResults) {
        if (test.status !== 'pending' && test.status !== 'skipped' && test.status !== 'todo') continue;
        const reason = REASON.exec([...test.ancestorTitles, test.title].join(' '))?.[1] ?? 'no reason given';
        const files = byReason.get(reason) ?? new Map();
        const path = relative(this.rootDir, file.testFilePath);
        files.set(path, (files.get(path) ?? 0) + 1);
        byReason.set(reason, files);
      }
    }
    if (byReason.size === 0 && this.notRun.length === 0) return;
    const lines = ['', 'Not run in this test run:'];
    for (const [reason, files] of byReason) {
      const tests = [...files].map(([path, count]) => `${path} (${count} test${count === 1 ? '' : 's'})`);
      lines.push(`  ${tests.join(', ')}: ${reason}`);
    }
    for (const { what, how } of this.notRun) lines.push(`  ${what}: ${how}`);
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

module.exports = SkippedTestsReporter;
