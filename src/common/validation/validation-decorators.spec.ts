import { AuditQueryDto } from '../../audit/dto/audit.dto';
import { PipeSpecHistoryQueryDto } from '../../pipes/history/pipe-spec-history.dto';
import { rejection, validated } from '../../../test/fixtures/dto-validation';

describe('IsDateTime (history and audit time bounds)', () => {
  const queries: (new () => object)[] = [PipeSpecHistoryQueryDto, AuditQueryDto];

  it.each([
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.123+02:00',
    '2026-01-01T00:00Z',
    '1000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
  ])('accepts %s', async (value) => {
    for (const dto of queries)
      await expect(validated(dto, { from: value, to: value }, 'query')).resolves.toBeDefined();
  });

  it.each([
    ['a bare number (a year far past 9999 to Date)', '1237001'],
    ['a date without a time', '2026-01-01'],
    ['no time zone', '2026-01-01T00:00:00'],
    ['a day that does not exist', '2026-02-30T00:00:00Z'],
    ['year 0, which Postgres does not have', '0000-06-01T00:00:00Z'],
    ['an instant that falls in year 999 once in UTC', '1000-01-01T00:30:00+01:00'],
    ['a year Date would read as 19xx', '0050-01-01T00:00:00Z'],
    ['a five-digit year', '10000-01-01T00:00:00Z'],
    ['text', 'yesterday'],
  ])('refuses %s', async (_label, value) => {
    for (const dto of queries) {
      const refused = await rejection(dto, { from: value, to: value }, 'query');
      expect(refused.status).toBe(400);
      expect(refused.paths).toEqual(['from', 'to']);
      expect(refused.errors[0].message).toMatch(/date-time with a time zone/);
    }
  });
});
