import { defineConfig } from 'vitest/config';

/**
 * The console's component tests (`src/**\/*.test.ts(x)`): React components and hooks rendered
 * with Testing Library in happy-dom, against a fake gateway. `npm test` runs them beside jest.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test-support/setup.ts'],
  },
});
