import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RateLimit, RequireSession } from '../auth/auth.decorators';
import { ApiError } from '../common/api-error';
import { ErrorResponseDto } from '../common/error-response.dto';
import { ListQuery } from '../common/list-query';
import { AuditLogListDto, AuditLogQuery } from './audit-logs.dto';
import { AuditService } from './audit.service';

/** The sign-in and administration audit log (docs/sign-in.md#audit-log), instance-wide, for super admins. Read-only. */
@ApiTags('admin')
@Controller('admin/audit_logs')
@RequireSession({ minRole: 'super_admin' })
@RateLimit('admin')
export class AuditLogsController {
  constructor(private readonly logs: AuditService) {}

  @Get()
  @ApiOkResponse({ type: AuditLogListDto })
  @ApiResponse({ status: 422, type: ErrorResponseDto, description: 'validation_failed: a filter, page or per_page out of range, from not before to, or a parameter the list does not take' })
  async list(@ListQuery() query: AuditLogQuery): Promise<AuditLogListDto> {
    if (query.from && query.to && query.from >= query.to) throw ApiError.validation(['from must be before to']);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const { rows, total } = await this.logs.list({
      event: query.event,
      from: query.from,
      to: query.to,
      userId: query.user_id,
      providerName: query.provider,
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    return {
      audit_logs: rows.map((row) => ({
        id: row.id,
        event: row.event,
        actor: row.actor,
        user_id: row.userId,
        user_email: row.userEmail,
        family_id: row.familyId,
        provider_id: row.providerId,
        provider_name: row.providerName,
        ip_address: row.ipAddress,
        user_agent: row.userAgent,
        details: row.details,
        created_at: row.createdAt.toISOString(),
      })),
      total,
      page,
      per_page: perPage,
    };
  }
}
