// Compiles the project's TypeScript on load with the settings the tests use (.swcrc): required by
// run-typescript.js, and preloaded into the worker threads the code it runs starts.
const { transformFileSync } = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  module._compile(transformFileSync(filename, { sourceMaps: 'inline' }).code, filename);
};
