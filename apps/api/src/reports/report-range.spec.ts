import { addMonths, defaultInterval, seriesDates, stepsWithin } from './report-range';

describe('report ranges', () => {
  it('adds months keeping the day, the last day of a shorter month standing in', () => {
    expect([addMonths('2024-01-31', 1), addMonths('2024-01-31', 2), addMonths('2025-03-31', -1), addMonths('2024-12-15', 1)]).toEqual([
      '2024-02-29', '2024-03-31', '2025-02-28', '2025-01-15',
    ]);
  });

  it('gives the start, each step on or before the end, and the end', () => {
    expect(seriesDates('2025-01-01', '2025-01-31', 'week')).toEqual(['2025-01-01', '2025-01-08', '2025-01-15', '2025-01-22', '2025-01-29', '2025-01-31']);
    expect(seriesDates('2024-12-31', '2025-02-28', 'month')).toEqual(['2024-12-31', '2025-01-31', '2025-02-28']);
    expect(seriesDates('2025-01-30', '2025-03-01', 'month')).toEqual(['2025-01-30', '2025-02-28', '2025-03-01']);
    expect(seriesDates('2025-01-01', '2025-01-01', 'day')).toEqual(['2025-01-01']);
    expect(stepsWithin('2025-01-31', '2025-02-27', 'month')).toBe(0);
  });

  it('reads days up to about three months, weeks up to three years, months beyond', () => {
    expect([defaultInterval('2025-01-01', '2025-04-03'), defaultInterval('2025-01-01', '2025-04-04'), defaultInterval('2022-01-01', '2025-01-01'), defaultInterval('2015-01-01', '2025-01-01')]).toEqual([
      'day', 'week', 'week', 'month',
    ]);
  });
});
