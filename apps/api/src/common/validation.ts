import { ValidationError, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { ApiError } from './api-error';

/**
 * The messages of nested errors, each prefixed with where its object sits ("mappings[1].value must be a string"):
 * class-validator names only the property, which alone does not say which of several list items is wrong.
 */
function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = !parent ? error.property : /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : `${parent}.${error.property}`;
    const own = Object.values(error.constraints ?? {}).map((message) => (parent ? `${parent}.${message}` : message));
    return [...own, ...flattenValidationErrors(error.children ?? [], path)];
  });
}

/** class-validator's message for an undeclared property, as flattenValidationErrors prefixes it. */
const UNDECLARED = /^((?:[^ ]+\.)?)property (.+) should not exist$/;

/**
 * The pipe every body, query and path DTO goes through: a 422 listing each problem, undeclared properties dropped
 * (or, with `forbidNonWhitelisted`, refused by name: "transaction.colour is not a field ...").
 */
export const validationPipe = (options: Pick<ValidationPipeOptions, 'forbidNonWhitelisted'> = {}) =>
  new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    ...options,
    // Several rules of one field can fail with the same message (an integer range): each message once.
    exceptionFactory: (errors) =>
      ApiError.validation([
        ...new Set(flattenValidationErrors(errors).map((message) => message.replace(UNDECLARED, '$1$2 is not a field this operation takes'))),
      ]),
  });
