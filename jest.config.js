/** Unit tests sit beside the code (*.spec.ts); e2e tests live under test/ (*.e2e-spec.ts). */
module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testRegex: '(src|sandbox|test|bench)/.*\\.(spec|e2e-spec)\\.ts$',
  transform: { '^.+\\.ts$': ['@swc/jest'] },
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
  testTimeout: 60_000,
  // The soak test runs for minutes: only with `npm run test:soak`.
  testPathIgnorePatterns: process.env.SOAK ? ['/node_modules/'] : ['/node_modules/', '/test/soak/'],
};
