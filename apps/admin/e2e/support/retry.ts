// A browser test that fails is run once more before it counts as failed: a real browser against a real server on a
// shared 2-core machine sometimes loses a race no user would (a refetch landing between two keystrokes of the test).
// The first failure is printed in full, so a flake stays visible in the log; a test that fails twice fails the run.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
