export const ROLES = ['admin', 'poster', 'finance', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling: always exactly one tenant. */
export interface Principal {
  tenantId: string;
  keyId: string;
  roles: readonly Role[];
  /** What the rows this key makes record as their actor: `api-key:<key id>`. */
  actor: string;
  /** When the key stops working, if it expires. */
  expiresAt: Date | null;
}

/** The actor of a request made with an API key (transactions, imports, runs, tickets, audit entries). */
export function apiKeyActor(keyId: string): string {
  return `api-key:${keyId}`;
}
