import { commandOptions, namedInOrder } from './options';

describe('commandOptions', () => {
  const OPTIONS = { rounds: { type: 'string', default: '1' }, profile: { type: 'boolean' } } as const;
  let argv: string[];
  let printed: string[];
  let exits: jest.SpyInstance;

  beforeEach(() => {
    argv = process.argv;
    printed = [];
    jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
    jest.spyOn(console, 'error').mockImplementation((text: string) => void printed.push(text));
    exits = jest.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
  });
  afterEach(() => {
    process.argv = argv;
    jest.restoreAllMocks();
  });

  const run = (...args: string[]) => {
    process.argv = ['node', 'run.js', ...args];
    return commandOptions('bench', OPTIONS);
  };

  it('reads the options, with their defaults', () => {
    expect(run('--profile')).toEqual({ rounds: '1', profile: true });
    expect(run('--rounds', '3')).toEqual({ rounds: '3' });
    expect(exits).not.toHaveBeenCalled();
  });

  it('lists them for --help and exits 0', () => {
    expect(() => run('--rounds', '3', '--help')).toThrow('exit 0');
    expect(printed.join('\n')).toBe(
      'usage: npm run bench -- [options]; what each does is in bench/README.md\n' +
        '  --rounds <value>  (default 1)\n' +
        '  --profile',
    );
  });

  it('names an unknown option and one missing its value, lists them and exits 2', () => {
    expect(() => run('--roundz', '3')).toThrow('exit 2');
    expect(() => run('--rounds')).toThrow('exit 2');
    expect(printed[0]).toMatch(/^bench: Unknown option '--roundz'/);
    expect(printed[1]).toMatch(/^bench: Option '--rounds <value>' argument missing/);
    expect(printed[1]).toContain('usage: npm run bench -- [options]');
  });
});

describe('namedInOrder', () => {
  const ROUTES = [{ name: 'GET settings' }, { name: 'GET dashboard' }, { name: 'POST pipe' }];

  it('takes every route when none is named', () => {
    expect(namedInOrder(ROUTES, undefined)).toEqual(ROUTES);
  });

  it('takes the routes named, in the order named', () => {
    expect(namedInOrder(ROUTES, ['POST pipe', 'GET settings'])).toEqual([ROUTES[2], ROUTES[0]]);
  });

  it('refuses an unknown name, listing the known ones', () => {
    expect(() => namedInOrder(ROUTES, ['GET settings', 'GET nothing'])).toThrow(
      'no route "GET nothing"; the routes are: GET settings, GET dashboard, POST pipe',
    );
  });
});
