import { gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { JS_BUDGET_BYTES } from './src/budget.ts';

/**
 * Writes a gzipped copy beside each script and style sheet, which the gateway sends to browsers
 * that take gzip, and fails the build when the JavaScript, gzipped, is over its budget.
 */
function gzipWithinBudget(): Plugin {
  return {
    name: 'gzip-within-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      let javascript = 0;
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css)$/.test(file.fileName)) continue;
        const gzipped = gzipSync(file.type === 'chunk' ? file.code : file.source, { level: 9 });
        if (file.type === 'chunk') javascript += gzipped.length;
        this.emitFile({ type: 'asset', fileName: `${file.fileName}.gz`, source: gzipped });
      }
      const kb = (javascript / 1024).toFixed(1);
      if (javascript > JS_BUDGET_BYTES) {
        this.error(
          `the console's JavaScript is ${kb} KB gzipped, over its budget of ${JS_BUDGET_BYTES / 1024} KB`,
        );
      }
      this.info(`JavaScript: ${kb} KB gzipped (budget ${JS_BUDGET_BYTES / 1024} KB)`);
    },
  };
}

/**
 * The console is served by the gateway at /console/ (src/console/console-static.ts) under a strict
 * CSP: no inline script or style may be emitted. `npm run build` writes it to dist/console.
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  publicDir: false,
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    // No inline assets: images and fonts stay files, which the policy allows from 'self'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  plugins: [gzipWithinBudget()],
  server: {
    // `npm run console:dev`: the console on Vite's server, the API from a running gateway. The
    // sandbox's issuer knows this port's /console/ as a redirect URI.
    port: 5173,
    strictPort: true,
    proxy: {
      '/v1': process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000',
      '/console/config.json': process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000',
    },
  },
});
