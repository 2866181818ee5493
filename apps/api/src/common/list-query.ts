import { ArgumentMetadata, createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';
import { DECORATORS } from '@nestjs/swagger';
import { getMetadataStorage } from 'class-validator';
import type { Request } from 'express';
import { ApiError } from './api-error';
import { ErrorResponseDto } from './error-response.dto';
import { validationPipe } from './validation';

/**
 * The query of a list: `@ListQuery() query: ListImportsQuery`. Validated as `@Query()` is, but a parameter the DTO does
 * not declare is a 422 naming it and the ones the list takes. The validation pipe alone would drop it, and a list asked
 * for a filter it does not have (a misspelt one, Sure's `event_type`) would answer unfiltered as if it were filtered.
 * A single record's GET keeps `@Query()`: an unknown parameter there cannot make it answer another record.
 */
export const ListQuery = (): ParameterDecorator => listQuery(undefined, new ListQueryPipe());

/** The DTO of a list that takes no query parameters: with `@ListQuery()`, every parameter is refused. */
export class NoQueryParams {}

/** The OpenAPI 422 of such a list. */
export const NO_QUERY_PARAMS = { status: 422, type: ErrorResponseDto, description: 'validation_failed: a query parameter (the list takes none)' };

/** Refuses what the DTO does not declare, then validates and transforms as the global pipe does a `@Query()`. */
export class ListQueryPipe implements PipeTransform {
  private readonly validation = validationPipe();

  async transform(query: Record<string, unknown>, metadata: ArgumentMetadata): Promise<unknown> {
    const known = declaredParams(metadata.metatype!);
    const unknown = Object.keys(query).filter((name) => !known.includes(name));
    const takes = known.length ? known.join(', ') : 'none';
    if (unknown.length) {
      // Named up to a point: a query of a thousand made-up keys gets a short answer, not a line for each.
      const named = unknown.slice(0, MAX_NAMED).map((name) => `unknown query parameter ${shortened(name)}; this list takes ${takes}`);
      if (unknown.length > MAX_NAMED) named.push(`and ${unknown.length - MAX_NAMED} more unknown query parameters`);
      throw ApiError.validation(named);
    }
    return this.validation.transform(query, { ...metadata, type: 'query' });
  }
}

const MAX_NAMED = 10;
const shortened = (name: string) => (name.length > 100 ? `${name.slice(0, 100)}…` : name);

/** The parameters `dto` declares: those with validation rules, which are the ones the validation pipe keeps. */
function declaredParams(dto: Type): string[] {
  return [...new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName))];
}

/**
 * The OpenAPI parameters `@Query()` would give `dto`: one per ApiProperty, the same objects swagger makes when it
 * reflects a query DTO (its explicit `@ApiQuery({ type })` would drop their enums). Swagger lists them as `:name`.
 */
function documentedParams(dto: Type): Array<{ name: string }> {
  const keys: string[] = Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES_ARRAY, dto.prototype) ?? [];
  return keys.map((key) => key.slice(1)).map((name) => ({ type: dto, name, required: true, in: 'query', ...Reflect.getMetadata(DECORATORS.API_MODEL_PROPERTIES, dto.prototype, name) }));
}

/**
 * Hands the raw query past the global validation pipe (which leaves custom decorators alone) to ListQueryPipe, and
 * documents the DTO's parameters, refusing at startup a DTO whose documented parameters are not the ones it takes.
 */
const listQuery = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<Request>().query,
  [
    (target, method, index) => {
      const dto: unknown = Reflect.getMetadata('design:paramtypes', target, method!)?.[index];
      if (typeof dto !== 'function' || dto === Object) throw new Error(`@ListQuery() of ${String(method)} needs a DTO class as its type`);
      const documented = documentedParams(dto as Type);
      const [shown, taken] = [documented.map((p) => p.name), declaredParams(dto as Type)].map((names) => names.sort().join(', '));
      if (shown !== taken) throw new Error(`${dto.name} documents ${shown || 'nothing'} but takes ${taken || 'nothing'}`);
      const handler = Object.getOwnPropertyDescriptor(target, method!)!.value as object;
      Reflect.defineMetadata(DECORATORS.API_PARAMETERS, [...(Reflect.getMetadata(DECORATORS.API_PARAMETERS, handler) ?? []), ...documented], handler);
    },
  ],
);
