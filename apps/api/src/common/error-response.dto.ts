import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** The body of every error response (docs/api/errors-and-lists.md), named in the OpenAPI document as Sure's API names it. */
@ApiSchema({ name: 'ErrorResponse' })
export class ErrorResponseDto {
  @ApiProperty({ description: 'Stable error code, e.g. validation_failed or record_not_found' }) error: string;
  @ApiPropertyOptional({ nullable: true, type: String }) message?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    oneOf: [{ type: 'array', items: { type: 'string' } }, { type: 'object', additionalProperties: true }],
  })
  details?: string[] | Record<string, unknown> | null;
  @ApiPropertyOptional({ nullable: true, type: [String], description: 'Validation messages' }) errors?: string[] | null;
}

/** An error about an import that exists although a later step failed: import_id is kept for retry or inspection. */
@ApiSchema({ name: 'ErrorResponseWithImportId' })
export class ErrorResponseWithImportIdDto {
  @ApiProperty() error: string;
  @ApiPropertyOptional({ nullable: true, type: String }) message?: string | null;
  @ApiProperty({ format: 'uuid' }) import_id: string;
  @ApiPropertyOptional({ type: [String], description: 'Why the import cannot be published, when known' }) errors?: string[];
}

/** A CSV whose dates fit more than one format, reading some date differently: the user chooses one (date_format). */
@ApiSchema({ name: 'ErrorResponseAmbiguousDateFormat' })
export class ErrorResponseAmbiguousDateFormatDto {
  @ApiProperty({ enum: ['ambiguous_date_format'] }) error: string;
  @ApiProperty() message: string;
  @ApiProperty({ type: [String] }) errors: string[];
  @ApiProperty({ type: [String], description: 'The date formats (strftime) that read every date of the file, in the order to offer them', example: ['%d/%m/%Y', '%m/%d/%Y'] })
  date_formats: string[];
  @ApiProperty({ description: 'The first date of the file the formats read as different days', example: '03/04/2026' }) date_sample: string;
}
