import { validate } from 'class-validator';
import { assertUsableFamilyCurrency, currencyCodeProblem, IsCurrencyCode } from './currency-field';

class Body {
  @IsCurrencyCode() currency: unknown;
}

describe('currencyCodeProblem', () => {
  it('accepts the ISO 4217 codes the runtime knows', () => {
    for (const code of ['USD', 'EUR', 'JPY', 'KWD']) expect(currencyCodeProblem('currency', code)).toBeNull();
  });

  it('names the field and the value for a well-formed code that is not ISO 4217, and for anything else', () => {
    expect(currencyCodeProblem('currency', 'XYZ')).toBe('currency must be an ISO 4217 currency code such as USD or EUR ("XYZ" is not one)');
    expect(currencyCodeProblem('currency', 'usd')).toMatch(/^currency must be .* \("usd" is not one\)$/);
    expect(currencyCodeProblem('currency', null)).toBe('currency must be an ISO 4217 currency code such as USD or EUR');
    expect(currencyCodeProblem('currency', 42)).toBe('currency must be an ISO 4217 currency code such as USD or EUR');
  });
});

describe('@IsCurrencyCode', () => {
  const problems = async (currency: unknown) => (await validate(Object.assign(new Body(), { currency }))).flatMap((e) => Object.values(e.constraints ?? {}));

  it('refuses XYZ with the one message, and passes EUR', async () => {
    expect(await problems('XYZ')).toEqual(['currency must be an ISO 4217 currency code such as USD or EUR ("XYZ" is not one)']);
    expect(await problems('EUR')).toEqual([]);
  });
});

describe('assertUsableFamilyCurrency', () => {
  it('is a 409 invalid_family_currency saying to fix household settings', () => {
    expect(() => assertUsableFamilyCurrency('XYZ')).toThrow(expect.objectContaining({ status: 409, code: 'invalid_family_currency', message: expect.stringContaining('household settings') }));
    expect(() => assertUsableFamilyCurrency('USD')).not.toThrow();
  });
});
