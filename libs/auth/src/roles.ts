export const ROLES = ['admin', 'poster', 'finance', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling: always exactly one tenant. */
export interface Principal {
  tenantId: string;
  keyId: string;
  roles: readonly Role[];
}
