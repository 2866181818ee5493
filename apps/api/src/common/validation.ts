import { ValidationError, ValidationPipe } from '@nestjs/common';
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

/** The pipe every body, query and path DTO goes through: a 422 listing each problem, undeclared properties dropped. */
export const validationPipe = () =>
  new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidUnknownValues: false,
    // Several rules of one field can fail with the same message (an integer range): each message once.
    exceptionFactory: (errors) => ApiError.validation([...new Set(flattenValidationErrors(errors))]),
  });
