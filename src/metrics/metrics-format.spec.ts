import { Counter, Histogram, Registry } from 'prom-client';
import { openMetricsText, preferredMetricsFormat } from './metrics-format';

describe('preferredMetricsFormat', () => {
  it.each([
    [undefined, 'prometheus'],
    ['*/*', 'prometheus'],
    ['text/plain;version=0.0.4', 'prometheus'],
    [
      'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1',
      'openmetrics',
    ],
    ['application/openmetrics-text; version=1.0.0', 'openmetrics'],
    ['text/plain;q=0.9, application/openmetrics-text;q=0.5', 'prometheus'],
    ['application/openmetrics-text;q=0, */*', 'prometheus'],
  ] as const)('%s: %s', (accept, format) => {
    expect(preferredMetricsFormat(accept)).toBe(format);
  });
});

describe('openMetricsText', () => {
  it('writes exemplars and EOF, and leaves the Prometheus names of the counters as they were', async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'calls_total', help: 'Calls.', registers: [registry] });
    // Registered after it is made, as MetricsService does: prom-client refuses it in the constructor.
    const histogram = new Histogram({
      name: 'call_seconds',
      help: 'Call time.',
      buckets: [0.1, 1],
      registers: [],
      enableExemplars: true,
    });
    registry.registerMetric(histogram);
    counter.inc();
    histogram.observe({ value: 0.05, labels: {}, exemplarLabels: { trace_id: 'abc', span_id: 'def' } });

    const open = await openMetricsText(registry);
    expect(open).toContain('# TYPE calls counter\ncalls_total 1');
    expect(open).toMatch(/call_seconds_bucket\{le="0.1"\} 1 # \{trace_id="abc",span_id="def"\} 0.05 \d/);
    expect(open.endsWith('# EOF\n')).toBe(true);

    const text = await registry.metrics();
    expect(text).toContain('# TYPE calls_total counter\ncalls_total 1');
    expect(text).not.toContain('trace_id');
  });
});
