import { ValidateIf } from 'class-validator';

/**
 * A field that may be left out (it keeps its default or current value) but is never null: unlike `@IsOptional()`,
 * a null value goes on to the field's other rules, which refuse it with a message naming the field.
 */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
