// The typed client's generated files, from the gateway's OpenAPI document: the document itself and
// the TypeScript types openapi-typescript derives from it, formatted like the rest of the repository.
// `npm run client:generate` writes them; test/typed-client.e2e-spec.ts checks the committed ones,
// running this file with the document on stdin (it prints the files as JSON): openapi-typescript
// loads ES modules with require(), which Node does and jest's module system does not.
const { join } = require('node:path');
const prettier = require('prettier');

const ROOT = join(__dirname, '..');
const HEADER =
  '// Generated from the pipes-gateway OpenAPI document by `npm run client:generate`; do not edit.\n';

/** `{ relative path: content }` of every generated file. */
async function clientFiles(document) {
  // openapi-typescript's CommonJS build; it reads the document as given, with no network access.
  const { default: openapiTS, astToString } = require('openapi-typescript');
  const types = HEADER + astToString(await openapiTS(document, { silent: true }));
  const files = {
    'clients/openapi.json': JSON.stringify(document, null, 2),
    'clients/typescript/src/schema.d.ts': types,
  };
  const formatted = {};
  for (const [path, text] of Object.entries(files)) {
    const filepath = join(ROOT, path);
    const options = (await prettier.resolveConfig(filepath)) ?? {};
    formatted[path] = await prettier.format(text, { ...options, filepath });
  }
  return formatted;
}

module.exports = { clientFiles, ROOT };

if (require.main === module) {
  const chunks = [];
  process.stdin.on('data', (chunk) => chunks.push(chunk));
  process.stdin.on('end', () => {
    clientFiles(JSON.parse(Buffer.concat(chunks).toString('utf8'))).then(
      (files) => process.stdout.write(JSON.stringify(files)),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
