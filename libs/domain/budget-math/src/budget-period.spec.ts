import {
  budgetName,
  budgetPeriodFor,
  familyToday,
  isBudgetInitialized,
  isCurrentBudget,
  localDateIn,
} from './budget-period';

describe('budgetPeriodFor', () => {
  it.each([
    ['2025-01-01', 1, '2025-01-01', '2025-01-31'],
    ['2025-01-31', 1, '2025-01-01', '2025-01-31'],
    ['2024-02-10', 1, '2024-02-01', '2024-02-29'],
    ['2025-02-10', 1, '2025-02-01', '2025-02-28'],
    ['2025-12-31', 1, '2025-12-01', '2025-12-31'],
  ])('calendar month: %s -> %s..%s', (date, startDay, startDate, endDate) => {
    expect(budgetPeriodFor(date, startDay)).toEqual({ startDate, endDate });
  });

  it.each([
    ['2025-01-10', '2024-12-15', '2025-01-14'],
    ['2025-01-14', '2024-12-15', '2025-01-14'],
    ['2025-01-15', '2025-01-15', '2025-02-14'],
    ['2025-01-20', '2025-01-15', '2025-02-14'],
    ['2025-02-14', '2025-01-15', '2025-02-14'],
    ['2025-02-15', '2025-02-15', '2025-03-14'],
    ['2025-12-15', '2025-12-15', '2026-01-14'],
  ])('month_start_day 15: %s -> %s..%s', (date, startDate, endDate) => {
    expect(budgetPeriodFor(date, 15)).toEqual({ startDate, endDate });
  });

  it('month_start_day 28 spans February', () => {
    expect(budgetPeriodFor('2025-03-01', 28)).toEqual({ startDate: '2025-02-28', endDate: '2025-03-27' });
    expect(budgetPeriodFor('2025-02-27', 28)).toEqual({ startDate: '2025-01-28', endDate: '2025-02-27' });
  });

  it.each([0, 29, 1.5, Number.NaN])('rejects month_start_day %p', (startDay) => {
    expect(() => budgetPeriodFor('2025-01-10', startDay)).toThrow(RangeError);
  });

  it.each(['2025-02-30', '2025-1-10', '10/01/2025', '2025-13-01', ''])('rejects date %p', (date) => {
    expect(() => budgetPeriodFor(date, 1)).toThrow(RangeError);
  });
});

describe('budgetName', () => {
  it('names a calendar month by month and year', () => {
    expect(budgetName({ startDate: '2025-01-01', endDate: '2025-01-31' })).toBe('January 2025');
  });

  it('names a custom month by its bounds', () => {
    expect(budgetName({ startDate: '2025-01-15', endDate: '2025-02-14' })).toBe('Jan 15 - February 14, 2025');
  });

  it('zero-pads days and takes the year from the end date', () => {
    expect(budgetName({ startDate: '2024-12-05', endDate: '2025-01-04' })).toBe('Dec 05 - January 04, 2025');
  });

  it('follows the locale', () => {
    expect(budgetName({ startDate: '2025-03-01', endDate: '2025-03-31' }, 'de')).toBe('März 2025');
  });

  it("names the period's Gregorian month even where the locale's own calendar is another", () => {
    const march = { startDate: '2025-03-01', endDate: '2025-03-31' };
    // fa defaults to the Persian calendar, where March 1-31 is not one month (Esfand 1403 ends on March 20).
    expect(budgetName(march, 'fa')).toBe('مارس ۲۰۲۵');
    expect(budgetName(march, 'en-u-ca-islamic')).toBe('March 2025');
    expect(budgetName({ startDate: '2025-01-15', endDate: '2025-02-14' }, 'th')).toBe('15 ม.ค. - 14 กุมภาพันธ์ 2025');
  });
});

describe('localDateIn', () => {
  it('23:30 UTC is already the next day in Tokyo', () => {
    const now = new Date('2025-01-31T23:30:00Z');
    expect(localDateIn(now, 'UTC')).toBe('2025-01-31');
    expect(localDateIn(now, 'Asia/Tokyo')).toBe('2025-02-01');
  });

  it('00:30 UTC is still the previous day in New York', () => {
    expect(localDateIn(new Date('2025-03-01T00:30:00Z'), 'America/New_York')).toBe('2025-02-28');
  });

  it('rejects an unknown time zone', () => {
    expect(() => localDateIn(new Date(), 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('familyToday', () => {
  it("is the date in the family's time zone, and UTC's without a known one", () => {
    const now = new Date('2025-01-31T23:30:00Z');
    expect(familyToday('Asia/Tokyo', now)).toBe('2025-02-01');
    expect(familyToday(null, now)).toBe('2025-01-31');
    expect(familyToday('Mars/Olympus', now)).toBe('2025-01-31');
  });
});

describe('isBudgetInitialized', () => {
  it('is true once budgeted spending is set, even to 0', () => {
    expect(isBudgetInitialized(0n)).toBe(true);
    expect(isBudgetInitialized(300000n)).toBe(true);
  });

  it('is false while budgeted spending is null', () => {
    expect(isBudgetInitialized(null)).toBe(false);
  });
});

describe('isCurrentBudget', () => {
  const january = { startDate: '2025-01-01', endDate: '2025-01-31' };
  const february = { startDate: '2025-02-01', endDate: '2025-02-28' };
  const lateOnJanuary31 = new Date('2025-01-31T23:30:00Z');

  it('uses the family time zone to decide which month is today', () => {
    expect(isCurrentBudget(january, 1, lateOnJanuary31, 'UTC')).toBe(true);
    expect(isCurrentBudget(january, 1, lateOnJanuary31, 'Asia/Tokyo')).toBe(false);
    expect(isCurrentBudget(february, 1, lateOnJanuary31, 'Asia/Tokyo')).toBe(true);
  });

  it('compares against the custom month of today', () => {
    const custom = { startDate: '2025-01-15', endDate: '2025-02-14' };
    expect(isCurrentBudget(custom, 15, new Date('2025-02-14T12:00:00Z'), 'UTC')).toBe(true);
    expect(isCurrentBudget(custom, 15, new Date('2025-02-14T23:30:00Z'), 'Asia/Tokyo')).toBe(false);
  });

  it('is false for a calendar month when the family now starts months on the 15th', () => {
    expect(isCurrentBudget(january, 15, new Date('2025-01-20T12:00:00Z'), 'UTC')).toBe(false);
  });
});
