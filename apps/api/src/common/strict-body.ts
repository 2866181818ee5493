import { ArgumentMetadata, createParamDecorator, ExecutionContext, PipeTransform, Type } from '@nestjs/common';
import { ApiBody } from '@nestjs/swagger';
import type { Request } from 'express';
import { validationPipe } from './validation';

/** Validates and transforms as the global pipe does a `@Body()`, but refuses a property the DTO does not declare. */
export class StrictBodyPipe implements PipeTransform {
  private readonly validation = validationPipe({ forbidNonWhitelisted: true });

  transform(body: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return this.validation.transform(body ?? {}, { ...metadata, type: 'body' });
  }
}

/**
 * The body of a write to the ledger: `@StrictBody() body: CreateTransactionDto`. A field the DTO does not declare (a
 * misspelt `categroy_id`) is a 422 naming it, where `@Body()` would drop it and answer 200 having changed nothing
 * the caller meant. The global pipe leaves custom decorators alone; the DTO is documented as `@Body()` would be.
 */
export const StrictBody = (): ParameterDecorator => strictBody(undefined, new StrictBodyPipe());

const strictBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<Request>().body,
  [
    (target, method, index) => {
      const dto: unknown = Reflect.getMetadata('design:paramtypes', target, method!)?.[index];
      if (typeof dto !== 'function' || dto === Object) throw new Error(`@StrictBody() of ${String(method)} needs a DTO class as its type`);
      ApiBody({ type: dto as Type })(target, method!, Object.getOwnPropertyDescriptor(target, method!)!);
    },
  ],
);
