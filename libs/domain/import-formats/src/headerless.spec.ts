import { inferColumns, looksLikeData, remarkLines } from './headerless';

describe('headerless files: columns told from their values', () => {
  const records = [
    ['18.09.2017', 'HOFER DANKT 0527', '18.09.2017', '-33,87', 'EUR', '1.000,00'],
    ['19.09.2017', 'Gehalt', '18.09.2017', '1.200,00', 'EUR', '2.200,00'],
    ['20.09.2017', 'HOFER DANKT 0527', '20.09.2017', '-12,00', 'EUR', '2.188,00'],
  ];

  it('takes the first date column, the signed number column, the most varied text and the ISO codes', () => {
    expect(inferColumns(records, '%d.%m.%Y', '1.234,56')).toEqual({ date: 0, amount: 3, name: 1, currency: 4 });
  });

  it('takes the first number column when none has a negative value, and no name or currency when none is there', () => {
    const unsigned = [
      ['2024-01-02', '10.00', '5.00'],
      ['2024-01-03', '7.50', '2.50'],
    ];
    expect(inferColumns(unsigned, '%Y-%m-%d', '1,234.56')).toEqual({ date: 0, amount: 1, name: null, currency: null });
  });

  it('finds nothing without a date column or a number column', () => {
    expect(inferColumns([['a', '1.00'], ['b', '2.00']], '%Y-%m-%d', '1,234.56')).toBeNull();
    expect(inferColumns([['2024-01-02', 'a'], ['2024-01-03', 'b']], '%Y-%m-%d', '1,234.56')).toBeNull();
  });

  it('reads a line as a booking only with a date and another cell that is a number', () => {
    expect(looksLikeData(records[0], '%d.%m.%Y', '1.234,56')).toBe(true);
    expect(looksLikeData(['Buchungsdatum', 'Text', 'Betrag'], '%d.%m.%Y', '1.234,56')).toBe(false);
    expect(looksLikeData(['18.09.2017', 'HOFER'], '%d.%m.%Y', '1.234,56')).toBe(false);
  });

  it('names the lines with no date and no number as remarks', () => {
    expect(remarkLines([records[0], ['A null transaction, just to confuse things', '', ''], records[1]], '%d.%m.%Y', '1.234,56')).toEqual([2]);
  });
});
