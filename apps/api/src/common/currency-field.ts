import { isCurrencyCode } from '@hearth/domain/money';
import { registerDecorator, type ValidationArguments } from 'class-validator';
import { ApiError } from './api-error';

/**
 * The one check of a currency code entering Hearth (setup, the CLI, household settings): the ISO 4217 codes this
 * runtime's Intl supports. Intl formats any well-formed code ("XYZ"), but minor units and exchange rates exist only
 * for real ones, so a made-up code stored once would break every budget and import afterwards.
 */
export function currencyCodeProblem(field: string, value: unknown): string | null {
  if (isCurrencyCode(value)) return null;
  const shown = typeof value === 'string' ? ` ("${value.slice(0, 20)}" is not one)` : '';
  return `${field} must be an ISO 4217 currency code such as USD or EUR${shown}`;
}

/** class-validator rule on currencyCodeProblem; the message starts with the property, as the admin app maps it to its field. */
export const IsCurrencyCode = (): PropertyDecorator => (target, propertyName) =>
  registerDecorator({
    name: 'isCurrencyCode',
    target: target.constructor,
    propertyName: propertyName as string,
    validator: {
      validate: (value: unknown) => isCurrencyCode(value),
      defaultMessage: (args?: ValidationArguments) => currencyCodeProblem(args!.property, args!.value)!,
    },
  });

/** What an admin does about a stored currency that is not ISO 4217 (setup once took any three letters). */
export const STORED_CURRENCY_REPAIR =
  'An admin must set a valid currency in household settings (PATCH /api/v1/family_settings); that also repairs the budgets and accounts holding the invalid code.';

/**
 * Budgets and imports take the household currency for their amounts. A stored code that is not ISO 4217 (XYZ) has no
 * minor unit or exchange rate, so they answer 409 saying what to fix rather than storing rows in it or failing later.
 */
export function assertUsableFamilyCurrency(currency: string): void {
  if (isCurrencyCode(currency)) return;
  throw new ApiError(409, 'invalid_family_currency', `The household currency "${currency}" is not an ISO 4217 currency code. ${STORED_CURRENCY_REPAIR}`);
}
