import { checkedText, dateFormatError, strftimeFormat, yearsBefore, decodeBytes, exceedsProduct, minorUnitError, productOf, normalizeHeader, parseDate, parseNumber, parseStatementAmount, sameNumber, splitTags, sumOf } from './cells';

describe('decodeBytes', () => {
  it('reads UTF-8 and drops a byte-order mark', () => {
    expect(decodeBytes(Buffer.from('\uFEFFDate,Name\n2024-01-02,Café', 'utf8'))).toEqual({ text: 'Date,Name\n2024-01-02,Café' });
  });

  it('falls back to Windows-1252 for Western European bytes', () => {
    const bytes = Uint8Array.from([...Buffer.from('Name\nM'), 0xfc, ...Buffer.from('ller Stra'), 0xdf, 0x65]);
    expect(decodeBytes(bytes)).toEqual({ text: 'Name\nMüller Straße' });
  });

  it('reads the euro sign, dashes and curly quotes of Windows-1252 (Node decodes them as control characters)', () => {
    const bytes = Uint8Array.from([...Buffer.from('Name\nCaf'), 0xe9, 0x20, 0x80, 0x35, 0x20, 0x96, 0x20, 0x93, 0x6f, 0x6b, 0x94]);
    expect(decodeBytes(bytes)).toEqual({ text: 'Name\nCafé €5 – “ok”' });
  });

  it('recognises Windows-1250 by its Central European letters', () => {
    const bytes = Uint8Array.from([...Buffer.from('Name\n'), 0x8a, 0x6b, 0x6f, 0x64, 0x61, 0x20, 0x9e, 0x69, 0x76, 0x6f, 0x74]);
    expect(decodeBytes(bytes)).toEqual({ text: 'Name\nŠkoda život' });
  });

  it.each([
    ['København', 'K\xf8benhavn'],
    ['Chèque', 'Ch\xe8que'],
    ['España', 'Espa\xf1a'],
    ['Transações', 'Transa\xe7\xf5es'],
    ['Gdańsk', 'Gda\xf1sk'],
    ['Győr', 'Gy\xf5r'],
    ['Převod', 'P\xf8evod'],
    ['Łódź', '\xa3\xf3d\x9f'],
    ['Ťažba', '\x8da\x9eba'],
  ])('reads %s from Windows-1250 or -1252 bytes by where its letters can stand', (text, raw) => {
    expect(decodeBytes(Uint8Array.from([...`Name\n${raw}`].map((c) => c.charCodeAt(0))))).toEqual({ text: `Name\n${text}` });
  });

  it('transcodes UTF-16 with a byte-order mark', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Date,Name\n2024-01-02,Zoë', 'utf16le')]);
    expect(decodeBytes(utf16)).toEqual({ text: 'Date,Name\n2024-01-02,Zoë' });
  });

  it('refuses a file marked UTF-8 by its byte-order mark whose bytes are not UTF-8, instead of reading the mark into the first header', () => {
    const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from('Date,Name\n2024-01-02,Caf'), 0xe9]);
    expect(decodeBytes(bytes)).toEqual({ error: { code: 'invalid_encoding', message: expect.stringContaining('byte-order mark') } });
  });

  it('refuses a UTF-8 file with one Windows-1252 line, naming that line, instead of garbling every accented letter', () => {
    const bytes = Uint8Array.from([...Buffer.from('Date,Name\n2024-01-02,Café Müller\n2024-01-03,Crème brûlée\n2024-01-04,Caf'), 0xe9, 0x0a]);
    expect(decodeBytes(bytes)).toEqual({
      error: { code: 'invalid_encoding', message: expect.stringMatching(/^The file is UTF-8 except on line 4 \(byte 0xE9\).*save it again as UTF-8/) },
    });
  });

  it('counts the other lines that are not UTF-8 in its message', () => {
    const latin = [0x0a, ...Buffer.from('x,Caf'), 0xe9];
    const bytes = Uint8Array.from([...Buffer.from('Name\nZoë,Chloé,Noël,Joël'), ...latin, ...latin]);
    expect(decodeBytes(bytes)).toEqual({ error: { code: 'invalid_encoding', message: expect.stringContaining('line 3 (byte 0xE9) and 1 more line') } });
  });

  it('still reads a Windows-1252 file whose bytes happen to spell one UTF-8 letter', () => {
    // "Ã©" in Windows-1252 is C3 A9, which UTF-8 reads as é; the file's other accented bytes are not UTF-8.
    const bytes = Uint8Array.from([...Buffer.from('Name\nM'), 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a, 0x53, 0xe9, 0x76, 0x0a, 0xc3, 0xa9, 0x0a, 0x43, 0xe8]);
    expect(decodeBytes(bytes)).toEqual({ text: expect.stringMatching(/^Name\nMüller\nSév\n/) });
  });

  it('refuses binary content with a clear error', () => {
    expect(decodeBytes(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toEqual({
      error: { code: 'invalid_encoding', message: expect.stringContaining('binary') },
    });
  });
});

describe('checkedText', () => {
  it('refuses NUL characters and unpaired surrogates that the database cannot store', () => {
    expect(checkedText('a\u0000b')).toEqual({ error: { code: 'invalid_encoding', message: expect.stringContaining('NUL') } });
    expect(checkedText('a\ud800b')).toEqual({ error: { code: 'invalid_encoding', message: expect.stringContaining('surrogate') } });
    expect(checkedText('\uFEFFemoji 😀 ok')).toEqual({ text: 'emoji 😀 ok' });
  });
});

describe('parseNumber', () => {
  it.each([
    ['1,234.56', '1,234.56', '1234.56'],
    ['1.234,56', '1.234,56', '1234.56'],
    ['1 234,56', '1 234,56', '1234.56'],
    ['1\u00a0234,56', '1 234,56', '1234.56'],
    ['1,234', '1,234', '1234'],
    ['-12.5', '1,234.56', '-12.5'],
    ['(12.50)', '1,234.56', '-12.50'],
    ['$1,000.00', '1,234.56', '1000.00'],
    ['12.50-', '1,234.56', '-12.50'],
    ['EUR 3,50', '1.234,56', '3.50'],
    ['1,23,45,678.00', '1,234.56', '12345678.00'],
    ['12,34,567', '1,234', '1234567'],
    ['1.234.567,8', '1.234,56', '1234567.8'],
    ['1\u202f234\u202f567', '1 234,56', '1234567'],
    ['.5', '1,234.56', '0.5'],
    ['\u221212.50', '1,234.56', '-12.50'],
    ['\u22121 234,56', '1 234,56', '-1234.56'],
    ['-$25.00', '1,234.56', '-25.00'],
    ['- $25.00', '1,234.56', '-25.00'],
    ['$ -25.00', '1,234.56', '-25.00'],
    ['($25.00)', '1,234.56', '-25.00'],
    ['1.234,56 €', '1.234,56', '1234.56'],
    ['-12,50 zł', '1 234,56', '-12.50'],
    ['12,50 Kč', '1 234,56', '12.50'],
    ['12,50 kr.', '1.234,56', '12.50'],
    ['USD 1,000', '1,234', '1000'],
  ] as const)('%s in %s -> %s', (raw, format, expected) => {
    expect(parseNumber(raw, format)).toBe(expected);
  });

  it.each([
    ['\u062f.\u0627.\u200f4.750', '4.750'],
    ['\u062f.\u0627.4.750', '4.750'],
    ['-\u062f.\u0627.\u200f93.210', '-93.210'],
    ['4.750\u00a0\u062f.\u0627.', '4.750'],
    ['\u200e-12.50\u200e', '-12.50'],
    ['\u2067\u20aa 12.50\u2069', '12.50'],
  ] as const)('reads %p: currency symbols in another script, of several dotted parts, and bidirectional marks', (raw, expected) => {
    expect(parseNumber(raw, '1,234.56')).toBe(expected);
  });

  it.each(['', 'abc', '1.2.3', '12,34,56.7.8', '1e5', '12345678901234567890', '1.234,56'])('refuses %p', (raw) => {
    expect(parseNumber(raw, '1,234.56')).toBeNull();
  });

  it.each([
    ['12,50', '1,234.56'],
    ['12,50', '1,234'],
    ['12.50', '1.234,56'],
    ['1,2345.00', '1,234.56'],
    ['1234,567.00', '1,234.56'],
    ['1,23,4567', '1,234'],
    ['1  234,56', '1 234,56'],
    ['1.5', '1 234,56'],
    ['1 234.56', '1 234,56'],
  ] as const)('refuses %s in %s: group marks only between thousands or lakhs, and only the format decimal mark', (raw, format) => {
    expect(parseNumber(raw, format)).toBeNull();
  });

  it.each(['100.00 DR', '100.00 CR', '100.00 cr.', 'Dr 100.00', '(-25.00)', '-(25.00)', '--5', '-5-', '-$-5'])(
    'refuses %p: debit/credit markers and double signs do not say which way the money went',
    (raw) => {
      expect(parseNumber(raw, '1,234.56')).toBeNull();
    },
  );

  it.each(['0', '007.50', '5.', '-0.00', '-42', '99.99', '1234567890123', '12345678901234', '1.12345678', '1.123456789'])(
    'reads the plain cell %p in every format as the general patterns read it with a currency sign',
    (plain) => {
      for (const format of ['1,234.56', '1.234,56', '1 234,56', '1,234'] as const) {
        const written = format === '1,234.56' ? plain : plain.replace('.', ',');
        const signed = written.startsWith('-') ? `-$${written.slice(1)}` : `$${written}`;
        expect(parseNumber(written, format)).toBe(parseNumber(signed, format));
      }
    },
  );

  it('refuses grouping after the decimal separator instead of shrinking the amount', () => {
    expect(parseNumber('1,234.56', '1.234,56')).toBeNull();
    expect(parseNumber('1 234,5 6', '1 234,56')).toBeNull();
  });

  it('refuses a 1 MB cell without running its patterns over it (their cost grows with the square of the length)', () => {
    const hostile = `5${' '.repeat(1_000_000)}5`;
    expect(parseNumber(hostile, '1,234.56')).toBeNull();
    expect(parseNumber(hostile, '1 234,56')).toBeNull();
    expect(parseStatementAmount(hostile)).toBeNull();
    expect(parseDate('1 Mar 2024 '.repeat(100_000), '%d %b %Y')).toBeNull();
  });
});

describe('parseStatementAmount', () => {
  it('reads thousands grouped by commas, points, spaces or apostrophes', () => {
    expect(['1,234.56', '1.234,56', '1 234.56', '1\u00a0234,56', "1'234.56", '12\u2019345.00-', "(1'234'567.89)"].map(parseStatementAmount)).toEqual([
      '1234.56',
      '1234.56',
      '1234.56',
      '1234.56',
      '1234.56',
      '-12345.00',
      '-1234567.89',
    ]);
  });
});

describe('parseDate', () => {
  it('takes a date format as people write it (dd/mm/yyyy, DD.MM.YYYY, M/D/YY) beside strftime', () => {
    expect(parseDate('31/12/2024', 'dd/mm/yyyy')).toBe('2024-12-31');
    expect(parseDate('05.03.2024', 'DD.MM.YYYY')).toBe('2024-03-05');
    expect(parseDate('3/5/24', 'M/D/YY')).toBe('2024-03-05');
    expect(parseDate('2024-03-05', 'yyyy-mm-dd')).toBe('2024-03-05');
    expect(parseDate('5 Mar 2024', 'd mmm yyyy')).toBe('2024-03-05');
    expect(strftimeFormat('dd/mm/yyyy')).toBe('%d/%m/%Y');
    expect(strftimeFormat('%d.%m.%Y')).toBe('%d.%m.%Y');
    // A run of letters that is no part is refused, named as given.
    expect(dateFormatError('ddd/mm/yyyy')).toBe("date_format 'ddd/mm/yyyy' has no day");
    expect(dateFormatError('dd/mm')).toBe("date_format 'dd/mm' has no year");
  });

  it.each(['2024-02-29', '2023-02-29', '0000-01-01', '0001-01-01', '2024-13-01', '2024-00-10', '2024-04-31', '2024-12-31', '2024-1-05'])(
    'reads %p with the default format as the same format with another separator reads it',
    (iso) => {
      expect(parseDate(iso, '%Y-%m-%d')).toBe(parseDate(iso.replaceAll('-', '/'), '%Y/%m/%d'));
    },
  );

  it('writes years below 1000 with four digits', () => {
    expect(parseDate('0050-01-02', '%Y-%m-%d')).toBe('0050-01-02');
  });

  it.each([
    ['2024-03-01', '%Y-%m-%d', '2024-03-01'],
    ['03/01/2024', '%m/%d/%Y', '2024-03-01'],
    ['01.03.2024', '%d.%m.%Y', '2024-03-01'],
    ['1/3/24', '%d/%m/%y', '2024-03-01'],
    ['01-Mar-2024', '%d-%b-%Y', '2024-03-01'],
    ['March 1 2024', '%B %e %Y', '2024-03-01'],
    ['Sept 1 2024', '%B %e %Y', '2024-09-01'],
    ['01-MAR-2024', '%d-%b-%Y', '2024-03-01'],
    ['2024-03-01 14:05:00', '%Y-%m-%d %H:%M:%S', '2024-03-01'],
    ['2024-03-01T23:59:60', '%Y-%m-%dT%H:%M:%S', '2024-03-01'],
    ['03/01/2024 2:05 PM', '%m/%d/%Y %I:%M %p', '2024-03-01'],
    ['Fri, 1 March 2024', '%a, %e %B %Y', '2024-03-01'],
    ['Friday 01 Mar 2024 00:00', '%A %d %b %Y %H:%M', '2024-03-01'],
    ['2024-061', '%Y-%j', '2024-03-01'],
    ['2023-061', '%Y-%j', '2023-03-02'],
    ['24.1', '%y.%j', '2024-01-01'],
    ['2024366', '%Y%j', '2024-12-31'],
  ])('%s with %s -> %s', (raw, format, expected) => {
    expect(parseDate(raw, format)).toBe(expected);
  });

  it.each([
    ['2024-02-30', '%Y-%m-%d'],
    ['2024-13-01', '%Y-%m-%d'],
    ['2024-03-01 extra', '%Y-%m-%d'],
    ['03/01/2024', '%Y-%m-%d'],
    ['Marzipan 1 2024', '%B %e %Y'],
    ['2024-03-01 24:00:00', '%Y-%m-%d %H:%M:%S'],
    ['2024-03-01 14:05', '%Y-%m-%d %H:%M:%S'],
    ['03/01/2024 13:05 PM', '%m/%d/%Y %I:%M %p'],
    ['Thu, 1 March 2024', '%a, %e %B %Y'],
    ['2023-366', '%Y-%j'],
    ['2024-000', '%Y-%j'],
  ])('refuses %s with %s', (raw, format) => {
    expect(parseDate(raw, format)).toBeNull();
  });

  it('reads nothing with a format that repeats a part, instead of throwing', () => {
    expect(parseDate('01 Mar 2024 (01)', '%d %b %Y (%d)')).toBeNull();
    expect(dateFormatError('%d %b %Y (%d)')).toBe("date_format '%d %b %Y (%d)' uses %d twice");
    expect(dateFormatError('%e/%m/%Y')).toBeNull();
    expect(dateFormatError('%Y-%j')).toBeNull();
    expect(dateFormatError('%Y-%m-%j')).toBe("date_format '%Y-%m-%j' uses %m and %j for the month");
  });
});

describe('yearsBefore', () => {
  it('keeps the day, and takes 29 February to the 28th of a common year', () => {
    expect(yearsBefore('2026-11-24', 2)).toBe('2024-11-24');
    expect(yearsBefore('2024-02-29', 2)).toBe('2022-02-28');
    expect(yearsBefore('2024-02-29', 4)).toBe('2020-02-29');
    expect(yearsBefore('2024-02-29', 30)).toBe('1994-02-28');
  });
});

describe('splitTags', () => {
  it('splits on commas, else pipes, honouring backslash escapes', () => {
    expect(splitTags('food, weekly')).toEqual(['food', 'weekly']);
    expect(splitTags('food|weekly')).toEqual(['food', 'weekly']);
    expect(splitTags('a\\,b,c')).toEqual(['a,b', 'c']);
    expect(splitTags('  ')).toEqual([]);
  });
});

describe('normalizeHeader', () => {
  it('compares headers loosely as Sure does', () => {
    expect(normalizeHeader(' Account type* ')).toBe('account_type');
    expect(normalizeHeader('Exchange-Operating MIC')).toBe('exchange_operating_mic');
  });
});

describe('minorUnitError', () => {
  it("refuses an amount finer than the currency's minor unit; trailing zeros are not finer", () => {
    expect(['1.99', '1.990', '-3', '0.10'].map((v) => minorUnitError('fee', v, 'USD'))).toEqual([null, null, null, null]);
    expect(minorUnitError('fee', '1.005', 'USD')).toBe("fee '1.005' is finer than the USD minor unit: USD amounts have 2 decimals");
    expect([minorUnitError('fee', '500.00', 'JPY'), minorUnitError('fee', '0.5', 'JPY')]).toEqual([null, "fee '0.5' is finer than the JPY minor unit: JPY amounts have 0 decimals"]);
    expect([minorUnitError('fee', '1.005', 'KWD'), minorUnitError('fee', '1.0005', 'KWD')]).toEqual([null, "fee '1.0005' is finer than the KWD minor unit: KWD amounts have 3 decimals"]);
  });
});

describe('minorUnitError beyond a JSON integer', () => {
  it('refuses an amount whose minor units a _cents field cannot carry exactly (13 digits of dinars are 16 of fils)', () => {
    expect(minorUnitError('balance', '9007199254740.991', 'KWD')).toBeNull();
    expect(minorUnitError('balance', '-9007199254740.992', 'KWD')).toBe(
      "balance '-9007199254740.992' is beyond the largest KWD amount Hearth stores (9007199254740.991)",
    );
    expect(minorUnitError('amount', '9999999999999.99', 'USD')).toBeNull();
  });

  it('compares a whole number of dinars too (it threw: the exact check was handed "9999999999999.")', () => {
    expect(minorUnitError('amount', '1234567890123', 'KWD')).toBeNull();
    expect(minorUnitError('amount', '-9999999999999', 'KWD')).toBe(
      "amount '-9999999999999' is beyond the largest KWD amount Hearth stores (9007199254740.991)",
    );
    expect(minorUnitError('amount', '-000000000000001.50', 'USD')).toBeNull();
  });
});

describe('exceedsProduct', () => {
  it('compares a decimal with a product of decimals exactly, by magnitude', () => {
    expect([exceedsProduct('2.1', ['0.7', '3']), exceedsProduct('2.11', ['0.7', '3']), exceedsProduct('-2.1', ['-0.7', '3'])]).toEqual([false, true, false]);
    expect([exceedsProduct('10', ['10']), exceedsProduct('10.00', ['9.999']), exceedsProduct('0', ['0'])]).toEqual([false, true, false]);
  });
});

describe('productOf', () => {
  it('multiplies decimal strings exactly, as magnitudes, without trailing zeros', () => {
    expect(productOf(['0.7', '3'])).toBe('2.1');
    expect(productOf(['2.5', '1.2'])).toBe('3');
    expect(productOf(['-1.5', '0.04'])).toBe('0.06');
    expect(productOf(['10', '100'])).toBe('1000');
    expect(productOf(['0', '12.5'])).toBe('0');
  });
});

describe('sumOf and sameNumber', () => {
  it('add decimal strings exactly, to the finest of their decimals', () => {
    expect(sumOf(['-60.00', '-30'])).toBe('-90.00');
    expect(sumOf(['0.1', '0.2'])).toBe('0.3');
    expect(sumOf(['12', '-12.000'])).toBe('0.000');
    expect(sumOf(['99999999999999999999.99', '0.01'])).toBe('100000000000000000000.00');
  });

  it('compare decimal strings as numbers', () => {
    expect(sameNumber('-90.00', '-90')).toBe(true);
    expect(sameNumber('0', '-0.00')).toBe(true);
    expect(sameNumber('90', '-90')).toBe(false);
  });
});
