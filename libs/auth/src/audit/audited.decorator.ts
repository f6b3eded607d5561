import { SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { AUDIT_METADATA, AuditInterceptor } from './audit.interceptor';

/** A change to a tenant's configuration: recorded in the audit log in the change's own transaction. */
export const Audited = (action: `${string}.${string}`) =>
  applyDecorators(SetMetadata(AUDIT_METADATA, action), UseInterceptors(AuditInterceptor));
