import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api/client';
import type { operations } from '../../../lib/api/schema';

export type AuditFilters = NonNullable<operations['AuditLogsController_list']['parameters']['query']>;

export const auditKeys = { list: (filters: AuditFilters) => ['audit-logs', filters] as const };

export const useAuditLogs = (filters: AuditFilters) =>
  useQuery({
    queryKey: auditKeys.list(filters),
    queryFn: () => unwrap(api.GET('/api/v1/admin/audit_logs', { params: { query: filters } })),
    placeholderData: keepPreviousData,
  });
