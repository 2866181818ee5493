// Three projects: fast pure unit specs beside the code, integration specs that boot the real app, and browser specs
// that drive the built admin SPA in Debian's Chromium against the real app.
const { swcOptions } = require('./tools/swc.cjs');

const swc = ['@swc/jest', swcOptions];
const moduleNameMapper = {
  '^@hearth/contracts$': '<rootDir>/libs/contracts/src/index.ts',
  '^@hearth/domain/(.*)$': '<rootDir>/libs/domain/$1/src/index.ts',
};
const common = { rootDir: __dirname, transform: { '^.+\\.tsx?$': swc }, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  testTimeout: 60000,
  // The second keeps tools/test.mjs told of each suite's start and outcome (a no-op when Jest runs on its own).
  reporters: ['default', '<rootDir>/tools/test-support/progress-reporter.cjs'],
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/api/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/apps/api/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/apps/api/test/jest.global-setup.ts',
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/apps/admin/e2e/**/*.spec.ts'],
      globalSetup: '<rootDir>/apps/admin/e2e/support/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/apps/admin/e2e/support/retry.ts'],
    },
  ],
};
