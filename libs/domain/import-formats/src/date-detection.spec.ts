import { parseDate } from './cells';
import { ambiguousDateFormatMessage, DETECTED_DATE_FORMATS, detectDateFormat, humanDateFormat } from './date-detection';

describe('detectDateFormat', () => {
  it('offers only formats parseDate reads', () => {
    const samples: Record<string, string> = {
      '%Y-%m-%d': '2026-10-31', '%Y/%m/%d': '2026/10/31', '%Y.%m.%d': '2026.10.31', '%d/%m/%Y': '31/10/2026', '%m/%d/%Y': '10/31/2026',
      '%d.%m.%Y': '31.10.2026', '%d-%m-%Y': '31-10-2026', '%m-%d-%Y': '10-31-2026', '%d/%m/%y': '31/10/26', '%m/%d/%y': '10/31/26',
      '%d.%m.%y': '31.10.26', '%d-%b-%Y': '31-Oct-2026', '%d %b %Y': '31 Oct 2026', '%b %d, %Y': 'Oct 31, 2026', '%Y%m%d': '20261031',
    };
    for (const format of DETECTED_DATE_FORMATS) {
      expect([format, parseDate(samples[format], format)]).toEqual([format, '2026-10-31']);
      // Each sample fits its own format alone: no two candidates read the same unambiguous value.
      expect([format, detectDateFormat([samples[format]])]).toEqual([format, { format }]);
    }
  });

  it('takes ISO dates as ISO', () => {
    expect(detectDateFormat(['2026-01-02', '2026-10-31', '2026-12-01'])).toEqual({ format: '%Y-%m-%d' });
  });

  it('tells dd.mm.yyyy by a day above 12', () => {
    expect(detectDateFormat(['01.02.2026', '13.02.2026'])).toEqual({ format: '%d.%m.%Y' });
  });

  it('tells m/d/yy by a day above 12, with or without leading zeros', () => {
    expect(detectDateFormat(['1/2/26', '3/25/26', '12/31/25'])).toEqual({ format: '%m/%d/%y' });
  });

  it('asks when every day is 12 or less: day first and month first read the dates differently', () => {
    expect(detectDateFormat(['03/04/2026', '05/06/2026'])).toEqual({ ambiguous: ['%d/%m/%Y', '%m/%d/%Y'], sample: '03/04/2026' });
    // The sample is the first value the formats read as different days.
    expect(detectDateFormat(['01/01/2026', '02/02/2026', '03/04/2026'])).toEqual({ ambiguous: ['%d/%m/%Y', '%m/%d/%Y'], sample: '03/04/2026' });
    expect(detectDateFormat(['03-04-2026'])).toEqual({ ambiguous: ['%d-%m-%Y', '%m-%d-%Y'], sample: '03-04-2026' });
  });

  it('takes the first format when the ones that fit read every value as the same day', () => {
    expect(detectDateFormat(['01/01/2026', '12/12/2025'])).toEqual({ format: '%d/%m/%Y' });
  });

  it('finds none when no format reads every value (mixed layouts, a smudge) or there are no values', () => {
    expect(detectDateFormat(['2026-01-02', '31/01/2026'])).toEqual({ none: true });
    expect(detectDateFormat(['31/01/2026', 'smudged'])).toEqual({ none: true });
    expect(detectDateFormat(['31/01/2026', '01/31/2026'])).toEqual({ none: true });
    expect(detectDateFormat([])).toEqual({ none: true });
  });

  it('never fits a two-digit and a four-digit year to the same value', () => {
    expect(detectDateFormat(['25/10/2026'])).toEqual({ format: '%d/%m/%Y' });
    expect(detectDateFormat(['25/10/26'])).toEqual({ format: '%d/%m/%y' });
    expect(detectDateFormat(['25.10.2026', '25.10.26'])).toEqual({ none: true });
  });

  it('reads month names, short or full, in any case', () => {
    expect(detectDateFormat(['02-Jan-2026', '15-MAR-2026'])).toEqual({ format: '%d-%b-%Y' });
    expect(detectDateFormat(['2 January 2026', '15 sept 2026'])).toEqual({ format: '%d %b %Y' });
    expect(detectDateFormat(['Jan 2, 2026', 'March 15, 2026'])).toEqual({ format: '%b %d, %Y' });
  });

  it('reads compact yyyymmdd', () => {
    expect(detectDateFormat(['20260102', '20261231'])).toEqual({ format: '%Y%m%d' });
  });
});

describe('the ambiguity in words', () => {
  it('names the formats as people write them', () => {
    expect(['%d/%m/%Y', '%m/%d/%y', '%d %b %Y', '%Y%m%d'].map(humanDateFormat)).toEqual(['dd/mm/yyyy', 'mm/dd/yy', 'dd mmm yyyy', 'yyyymmdd']);
  });

  it('says why day and month cannot be told apart, and how to choose', () => {
    expect(ambiguousDateFormatMessage(['%d/%m/%Y', '%m/%d/%Y'])).toBe('The dates fit both dd/mm/yyyy and mm/dd/yyyy (no day is above 12): send date_format to say which');
    expect(ambiguousDateFormatMessage(['%d/%m/%Y', '%m/%d/%Y', '%Y%m%d'])).toBe('The dates fit dd/mm/yyyy, mm/dd/yyyy and yyyymmdd: send date_format to say which');
  });
});
