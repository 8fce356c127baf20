/** The staff audit log's public face: every admin mutation calls recordAudit in its own transaction. */
export { type AuditRecord, listAudit, recordAudit } from './audit';
export { auditAdminRoutes } from './audit.admin-routes';
