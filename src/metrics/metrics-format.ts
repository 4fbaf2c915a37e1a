import { type Metric, type OpenMetricsContentType, Registry } from 'prom-client';

export type MetricsFormat = 'prometheus' | 'openmetrics';

export const METRICS_CONTENT_TYPES: Record<MetricsFormat, string> = {
  prometheus: Registry.PROMETHEUS_CONTENT_TYPE,
  openmetrics: Registry.OPENMETRICS_CONTENT_TYPE,
};

/**
 * The format a scrape's Accept header prefers: OpenMetrics (which alone carries exemplars) when it
 * ranks `application/openmetrics-text` at least as high as the Prometheus text format, as
 * Prometheus itself asks; the text format otherwise, and when there is no Accept.
 */
export function preferredMetricsFormat(accept: string | undefined): MetricsFormat {
  if (accept === undefined) return 'prometheus';
  let openMetrics = 0;
  let text = 0;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'application/openmetrics-text') openMetrics = Math.max(openMetrics, weight);
    else if (type === 'text/plain' || type === 'text/*' || type === '*/*') text = Math.max(text, weight);
  }
  return openMetrics > 0 && openMetrics >= text ? 'openmetrics' : 'prometheus';
}

/**
 * `registry`'s metrics in the OpenMetrics text format, exemplars included. prom-client writes it only
 * from a registry set to that format, and strips `_total` from the names of that registry's counters
 * in place as it does: the counters are lent to it under names of their own, so the Prometheus
 * text of `registry` keeps its names.
 */
export function openMetricsText(registry: Registry): Promise<string> {
  const writer = new Registry<OpenMetricsContentType>();
  writer.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
  for (const metric of registry.getMetricsAsArray() as unknown as Registered[]) {
    writer.registerMetric(metric.type === 'counter' ? countedUnder(metric) : metric);
  }
  return writer.metrics();
}

// What prom-client's typings leave out of a registered metric.
type Registered = Metric & { name: string; type: string; get(): Promise<object> };

/** A counter as OpenMetrics names it: without `_total`, which the writer adds to its samples. */
function countedUnder(counter: Registered): Metric {
  const name = counter.name.replace(/_total$/, '');
  return {
    name,
    type: 'counter',
    get: async () => ({ ...(await counter.get()), name }),
  } as unknown as Metric;
}
