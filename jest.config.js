/** Unit tests sit beside the code (*.spec.ts); e2e tests live under test/ (*.e2e-spec.ts). */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '(src|sandbox|test|bench)/.*\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'], '/node_modules/jose/.+\\.js$': ['@swc/jest'] },
  // jose ships ES modules only; jest's CommonJS runtime needs them compiled (Node itself loads them as they are).
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60_000,
  // The soak test runs for minutes: only with `npm run test:soak`.
  testPathIgnorePatterns: process.env.SOAK ? ['/node_modules/'] : ['/node_modules/', '/test/soak/'],
  reporters: [
    'default',
    [
      '<rootDir>/scripts/skipped-tests-reporter.js',
      {
        notRun: process.env.SOAK
          ? []
          : [{ what: 'test/soak/', how: 'runs for minutes; npm run test:soak runs it' }],
      },
    ],
  ],
};
