import { SetMetadata, UseInterceptors, applyDecorators } from '@nestjs/common';
import { AuditInterceptor } from './audit.interceptor';

export const AUDIT_METADATA = 'ledger:audit';

/** A change to a tenant's configuration: recorded in the audit log in the change's own transaction. */
export const Audited = (action: `${string}.${string}`) =>
  applyDecorators(SetMetadata(AUDIT_METADATA, action), UseInterceptors(AuditInterceptor));
