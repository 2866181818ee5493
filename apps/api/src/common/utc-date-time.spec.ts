/** @jest-environment ./apps/api/test/support/time-zone-environment.ts */
import { withTimeZone } from '../../test/support/time-zone';
import { parseUtcDateTime } from './utc-date-time';

const iso = (text: string) => parseUtcDateTime(text)?.toISOString() ?? null;

describe('parseUtcDateTime', () => {
  it('reads a value without an offset as UTC, also on a server west of UTC', async () => {
    await withTimeZone('America/New_York', () => {
      expect(new Date('2024-03-01T10:00:00').toISOString()).toBe('2024-03-01T15:00:00.000Z'); // what Date would do
      const event = new Date('2024-03-01T10:30:00Z');
      expect(parseUtcDateTime('2024-03-01T10:00:00')!.getTime()).toBeLessThanOrEqual(event.getTime());
      expect(parseUtcDateTime('2024-03-01T11:00:00')!.getTime()).toBeGreaterThan(event.getTime());
      expect(iso('2024-03-01')).toBe('2024-03-01T00:00:00.000Z');
      expect(iso('2024-03-01T10:00')).toBe('2024-03-01T10:00:00.000Z');
      expect(iso('2024-03-01T10:00:00.5')).toBe('2024-03-01T10:00:00.500Z');
      expect(iso('2024-03-01T10:00:00.123456')).toBe('2024-03-01T10:00:00.123Z');
    });
  });

  it('applies an explicit offset', () => {
    expect(iso('2024-03-01T10:00:00Z')).toBe('2024-03-01T10:00:00.000Z');
    expect(iso('2024-03-01T10:00:00+01:00')).toBe('2024-03-01T09:00:00.000Z');
    expect(iso('2024-03-01T10:00:00-0530')).toBe('2024-03-01T15:30:00.000Z');
    expect(iso('2024-03-01T10:00:00+01')).toBe('2024-03-01T09:00:00.000Z');
    expect(iso('2024-02-29T23:30:00-01:00')).toBe('2024-03-01T00:30:00.000Z');
    expect(iso('0050-01-01T00:00:00Z')).toBe('0050-01-01T00:00:00.000Z');
  });

  it('refuses what is not an ISO 8601 date or date-time of a real day and time', () => {
    for (const text of ['', '1', 'March 7', '2024-02-30', '2023-02-29', '2024-13-01', '2024-03-01T24:00:00', '2024-03-01T10:60', '2024-03-01T10', '2024-03-01 10:00:00', '2024-03-01T10:00:00+24:00', '2024-03-01T10:00:00+01:60', '20240301']) {
      expect([text, parseUtcDateTime(text)]).toEqual([text, null]);
    }
  });
});
