/**
 * Dashboard bodies shared by unit and end-to-end tests: the contract's sample shape, and a corpus of
 * the shapes the service itself takes (every series type of its 2025 API with its fields, tiles drawn
 * from `config`, and the dashboard fields of today's API).
 */
export type DashboardBody = Record<string, any>;

/** Two tiles: one the upstream already knows (with an id), one new (without); a fresh object per call. */
export function validDashboardBody(): DashboardBody {
  return {
    name: 'Checkout service',
    tiles: [
      {
        id: '65a1b2c3d4e5f60718293a4b',
        name: 'Errors per minute',
        x: 0,
        y: 0,
        w: 6,
        h: 3,
        asRatio: false,
        series: [
          {
            type: 'time',
            dataSource: 'events',
            aggFn: 'count',
            where: 'level:error',
            groupBy: [],
          },
        ],
      },
      {
        name: 'Average request duration',
        x: 6,
        y: 0,
        w: 6,
        h: 3,
        series: [
          {
            type: 'number',
            dataSource: 'metrics',
            aggFn: 'avg',
            field: 'http.server.duration',
            where: 'service:checkout',
          },
        ],
      },
    ],
    tags: ['checkout', 'production'],
  };
}

/** One tile per series type of the 2025 API, each with the fields of its type. */
export function seriesTiles(): DashboardBody[] {
  const at = (index: number) => ({ x: (index % 4) * 6, y: Math.floor(index / 4) * 3, w: 6, h: 3 });
  const tiles: DashboardBody[] = [
    {
      name: 'Latency by endpoint',
      series: [
        {
          type: 'time',
          dataSource: 'metrics',
          aggFn: 'p95_rate',
          field: 'http.server.duration',
          where: 'service:checkout',
          whereLanguage: 'lucene',
          groupBy: ['http.route', 'http.method'],
          metricDataType: 'Histogram',
          metricName: 'http.server.duration',
          numberFormat: { output: 'time', factor: 0.001, mantissa: 2 },
          sourceId: '65a1b2c3d4e5f60718293a00',
          alias: 'p95',
          level: 'error',
        },
      ],
    },
    {
      name: 'Top errors',
      series: [
        {
          type: 'table',
          dataSource: 'events',
          aggFn: 'count_distinct',
          field: 'trace_id',
          where: "level = 'error'",
          whereLanguage: 'sql',
          groupBy: ['error.type'],
          sortOrder: 'desc',
        },
      ],
    },
    {
      name: 'Orders today',
      series: [
        {
          type: 'number',
          dataSource: 'events',
          aggFn: 'sum',
          field: 'order.total',
          where: 'event:order_placed',
          numberFormat: {
            output: 'currency',
            currencySymbol: '€',
            mantissa: 2,
            thousandSeparated: true,
            average: false,
          },
        },
      ],
    },
    {
      name: 'Response sizes',
      series: [{ type: 'histogram', field: 'http.response.size', where: 'service:checkout' }],
    },
    {
      name: 'Recent errors',
      series: [{ type: 'search', fields: ['timestamp', 'message'], where: 'level:error' }],
    },
    { name: 'Runbook', series: [{ type: 'markdown', content: '# Checkout\n\nPage the on-call engineer.' }] },
  ];
  return tiles.map((tile, index) => ({ ...tile, ...at(index), asRatio: false }));
}

/** A dashboard in today's shape: tiles drawn from `config`, in containers, with the dashboard fields. */
export function todaysDashboardBody(): DashboardBody {
  return {
    name: 'Checkout (today)',
    tiles: [
      {
        id: 'tile-latency',
        x: 0,
        y: 0,
        w: 12,
        h: 4,
        containerId: 'overview',
        tabId: 'main',
        config: {
          name: 'Latency',
          displayType: 'line',
          source: '65a1b2c3d4e5f60718293a00',
          select: [{ aggFn: 'quantile', level: 0.95, valueExpression: 'Duration' }],
          where: "ServiceName = 'checkout'",
          whereLanguage: 'sql',
          granularity: 'auto',
        },
      },
      {
        id: 'tile-notes',
        x: 12,
        y: 0,
        w: 12,
        h: 4,
        containerId: 'overview',
        config: { name: 'Notes', displayType: 'markdown', markdown: 'Owned by the payments team.' },
      },
    ],
    tags: ['checkout'],
    filters: [
      {
        id: 'service',
        type: 'QUERY_EXPRESSION',
        name: 'Service',
        expression: 'ServiceName',
        source: '65a1b2c3d4e5f60718293a00',
      },
    ],
    savedQuery: "SeverityText = 'error'",
    savedQueryLanguage: 'sql',
    savedFilterValues: [{ type: 'sql', condition: "ServiceName IN ('checkout')" }],
    containers: [{ id: 'overview', title: 'Overview', collapsed: false }],
  };
}
