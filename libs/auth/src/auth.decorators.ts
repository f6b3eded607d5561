import { type ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { Principal, Role } from './roles';

export const ACCESS_METADATA = 'ledger:access';

/** Who may call a route: anyone, the operator token only, or API keys with one of some roles. */
export type Access = { kind: 'public' } | { kind: 'operator' } | { kind: 'roles'; roles: readonly Role[] };

export const Public = () => SetMetadata(ACCESS_METADATA, { kind: 'public' } satisfies Access);
export const OperatorOnly = () => SetMetadata(ACCESS_METADATA, { kind: 'operator' } satisfies Access);
export const Roles = (...roles: Role[]) => SetMetadata(ACCESS_METADATA, { kind: 'roles', roles } satisfies Access);

export interface AuthenticatedRequest {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (principal === undefined) throw new Error('CurrentPrincipal used on a route without API key authentication');
  return principal;
});
