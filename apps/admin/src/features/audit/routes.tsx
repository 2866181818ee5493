import type { RouteObject } from 'react-router';

export const auditRoutes: RouteObject[] = [
  { path: 'admin/sso_audit_logs', lazy: () => import('./pages/AuditLogPage').then((m) => ({ Component: m.AuditLogPage })) },
];
