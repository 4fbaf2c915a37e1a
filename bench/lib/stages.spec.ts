import { stageOf } from './stages';

const at = (path: string, functionName = 'run') => ({ functionName, url: `file:///app/dist/src/${path}.js` });
const inPackage = (name: string, functionName = 'f') => ({
  functionName,
  url: `file:///app/node_modules/${name}/lib/index.js`,
});

describe('where a sample of a write goes', () => {
  it('goes to the innermost stage on its stack', () => {
    expect(
      stageOf([
        { functionName: '', url: '' },
        at('common/validation/json-schema', 'assertBody'),
        at('pipes/pipes.service', 'create'),
        at('rate-limit/write-admission', 'admitted'),
      ]),
    ).toBe('checking the body');
  });

  it('tells scrubbing an answer from redacting what is stored', () => {
    expect(
      stageOf([
        at('redaction/redact', 'redactJsonTree'),
        at('redaction/redact', 'redactParsedJson'),
        at('upstream/upstream-http', 'answer'),
      ]),
    ).toBe('scrubbing the answer');
    expect(
      stageOf([
        at('redaction/redact', 'redactValue'),
        at('redaction/redact', 'redactSecrets'),
        at('audit/audit.service', 'append'),
      ]),
    ).toBe('audit append');
  });

  it("gives a background service's work to it, whatever it calls", () => {
    expect(
      stageOf([at('audit/audit.service', 'auditEventLine'), at('audit-sinks/sink-shipper', 'shipBatch')]),
    ).toBe('audit sinks (background)');
  });

  it('goes by package where no stage is on the stack, and keeps idle time out', () => {
    expect(stageOf([inPackage('pg-protocol', 'parse'), { functionName: 'emit', url: 'node:events' }])).toBe(
      'database client (Prisma, pg)',
    );
    expect(stageOf([{ functionName: 'emit', url: 'node:events' }])).toBe(
      'Node (sockets, streams, HTTP parsing)',
    );
    expect(stageOf([{ functionName: '(garbage collector)', url: '' }])).toBe('garbage collection');
    expect(stageOf([{ functionName: '(idle)', url: '' }])).toBeNull();
  });
});
