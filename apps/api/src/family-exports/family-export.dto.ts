import { ApiProperty } from '@nestjs/swagger';

export class FamilyExportDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: ['pending', 'processing', 'completed', 'failed'] }) status: string;
  @ApiProperty() file_name: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'integer' }, description: 'NDJSON lines per entity key' }) record_counts: Record<string, number>;
  @ApiProperty({ nullable: true, type: String }) error: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completed_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class FamilyExportResponseDto {
  @ApiProperty({ type: FamilyExportDto }) data: FamilyExportDto;
}

export class FamilyExportListDto {
  @ApiProperty({ type: [FamilyExportDto], description: 'The 25 most recent exports, newest first' }) data: FamilyExportDto[];
}
