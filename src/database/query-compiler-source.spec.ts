import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { unloadQueryCompilerSource } from './query-compiler-source';

function loaded(id: string, children: NodeModule[] = []): NodeModule {
  return { id, filename: id, children } as unknown as NodeModule;
}

describe('unloadQueryCompilerSource', () => {
  // The module the generated client decodes its compiler from, as this Prisma version names it.
  const generatedClient = readFileSync(join(__dirname, '../generated/prisma/internal/class.ts'), 'utf8');
  const sourceModule = /import\("(@prisma\/client\/runtime\/[^"]+\.wasm-base64\.js)"\)/.exec(generatedClient);

  it('recognises the module the generated client builds its compiler from', () => {
    expect(sourceModule).not.toBeNull();
    const path = require.resolve(sourceModule![1]);
    const source = loaded(path);
    const cache: NodeJS.Dict<NodeModule> = { [path]: source };
    expect(unloadQueryCompilerSource(cache)).toBe(1);
    expect(cache).toEqual({});
  });

  it('drops it from the module cache and from the children of the module that required it', () => {
    const source = loaded(
      '/app/node_modules/@prisma/client/runtime/query_compiler_fast_bg.mysql.wasm-base64.js',
    );
    const runtime = loaded('/app/node_modules/@prisma/client/runtime/query_compiler_fast_bg.mysql.js');
    const client = loaded('/app/dist/src/generated/prisma/internal/class.js', [runtime, source]);
    const cache: NodeJS.Dict<NodeModule> = {
      [client.id]: client,
      [runtime.id]: runtime,
      [source.id]: source,
    };

    expect(unloadQueryCompilerSource(cache)).toBe(1);

    expect(Object.keys(cache)).toEqual([client.id, runtime.id]);
    expect(client.children).toEqual([runtime]);
  });

  it('leaves everything as it was when the compiler was not built yet', () => {
    const runtime = loaded('/app/node_modules/@prisma/client/runtime/client.js');
    const client = loaded('/app/dist/src/generated/prisma/internal/class.js', [runtime]);
    const cache: NodeJS.Dict<NodeModule> = { [client.id]: client, [runtime.id]: runtime };

    expect(unloadQueryCompilerSource(cache)).toBe(0);

    expect(Object.keys(cache)).toEqual([client.id, runtime.id]);
    expect(client.children).toEqual([runtime]);
  });
});
