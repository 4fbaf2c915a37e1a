/** A valid dashboard replace body, shared by unit and end-to-end tests. */
import { ReplaceDashboardDto } from '../replace-dashboard.dto';

/** Two tiles: one the upstream already knows (with an id), one new (without); a fresh object per call. */
export function validDashboardBody(): ReplaceDashboardDto {
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
