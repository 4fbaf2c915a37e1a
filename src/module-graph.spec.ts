import 'reflect-metadata';
import { DynamicModule, Global, Module, Type } from '@nestjs/common';
import { GLOBAL_MODULE_METADATA, MODULE_METADATA } from '@nestjs/common/constants';
import { AppModule } from './app.module';
import { CliModule } from './cli/cli.module';
import type { AppConfig } from './config/app-config';

type ModuleLike = Type | DynamicModule | Promise<DynamicModule>;

function classOf(module: Type | DynamicModule): Type {
  return 'module' in module ? module.module : module;
}

/** The modules `module` imports, whether declared with @Module or returned by forRoot. */
function importsOf(module: Type | DynamicModule): (Type | DynamicModule)[] {
  const declared = (Reflect.getMetadata(MODULE_METADATA.IMPORTS, classOf(module)) ?? []) as ModuleLike[];
  const dynamic = 'module' in module ? ((module.imports ?? []) as ModuleLike[]) : [];
  // A promise is a library's async forRoot (@nestjs/config): it imports none of the gateway's modules.
  return [...declared, ...dynamic].flatMap((imported) => {
    if (imported instanceof Promise) return [];
    if (imported === undefined || 'forwardRef' in imported) {
      throw new Error(`${classOf(module).name} imports a module through forwardRef: a cycle`);
    }
    return [imported];
  });
}

/** Every cycle of imports reachable from `root`, each as the names along it. */
function importCycles(root: Type | DynamicModule): string[][] {
  const cycles: string[][] = [];
  const done = new Set<Type>();
  const path: Type[] = [];
  const visit = (module: Type | DynamicModule): void => {
    const type = classOf(module);
    const at = path.indexOf(type);
    if (at >= 0) {
      cycles.push([...path.slice(at), type].map((each) => each.name));
      return;
    }
    if (done.has(type)) return;
    path.push(type);
    for (const imported of importsOf(module)) visit(imported);
    path.pop();
    done.add(type);
  };
  visit(root);
  return cycles;
}

/** The global modules reachable from `root`. */
function globalModules(root: Type | DynamicModule): string[] {
  const found = new Set<string>();
  const seen = new Set<Type>();
  const visit = (module: Type | DynamicModule): void => {
    const type = classOf(module);
    if (seen.has(type)) return;
    seen.add(type);
    const global = ('module' in module && module.global) || Reflect.getMetadata(GLOBAL_MODULE_METADATA, type);
    if (global) found.add(type.name);
    for (const imported of importsOf(module)) visit(imported);
  };
  visit(root);
  return [...found].sort();
}

const config = {} as AppConfig;

describe('the module graph', () => {
  it.each([
    ['AppModule', AppModule.forRoot(config)],
    ['CliModule', CliModule.forRoot(config)],
  ])('%s imports no module that imports it back, directly or not', (_, root) => {
    expect(importCycles(root)).toEqual([]);
  });

  it('has only configuration, the database and metrics as global modules', () => {
    // LoggerModule is nestjs-pino's own, global by that library's design.
    expect(globalModules(AppModule.forRoot(config))).toEqual([
      'AppConfigModule',
      'DatabaseModule',
      'LoggerModule',
      'MetricsModule',
    ]);
  });

  it('finds a cycle when there is one', () => {
    @Module({})
    class Second {}
    @Module({ imports: [Second] })
    class First {}
    Reflect.defineMetadata(MODULE_METADATA.IMPORTS, [First], Second);
    @Global()
    @Module({ imports: [First] })
    class Root {}
    expect(importCycles(Root)).toEqual([['First', 'Second', 'First']]);
    expect(globalModules(Root)).toEqual(['Root']);
  });
});
