import { negotiateLocale } from './request-locale';

describe('negotiateLocale', () => {
  it('defaults to en', () => {
    expect(negotiateLocale(undefined, undefined)).toBe('en');
    expect(negotiateLocale(undefined, '')).toBe('en');
  });

  it('prefers ?locale= over Accept-Language', () => {
    expect(negotiateLocale('de', 'fr-FR,fr;q=0.9')).toBe('de');
  });

  it('canonicalises the tag', () => {
    expect(negotiateLocale('pt-br', undefined)).toBe('pt-BR');
  });

  it('takes the highest-quality Accept-Language entry, in header order on ties', () => {
    expect(negotiateLocale(undefined, 'en;q=0.5, fr-FR;q=0.9, de;q=0.9')).toBe('fr-FR');
  });

  it('skips wildcards, q=0 and unformattable tags', () => {
    expect(negotiateLocale(undefined, '*, xx-unknown;q=0.9, de;q=0, nl;q=0.2')).toBe('nl');
  });

  it('falls through when ?locale= names a language Intl cannot format', () => {
    expect(negotiateLocale('zz', 'de')).toBe('de');
  });

  it('ignores a malformed Accept-Language entry', () => {
    expect(negotiateLocale(undefined, '!!, de')).toBe('de');
  });

  it('rejects a malformed ?locale=', () => {
    expect(() => negotiateLocale('not a locale!', undefined)).toThrow(RangeError);
  });
});
