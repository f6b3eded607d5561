import type { Command } from 'commander';
import { AuditTrail, ListApiKeysUseCase, RevokeApiKeyUseCase } from '@ledger/auth';
import type { UseCaseContext } from './audit-commands';
import { cliActor } from './cli-actor';

type WithUseCases = <T>(work: (context: UseCaseContext) => Promise<T>) => Promise<T>;

/** Keys read per page while `keys list` prints them. */
const KEYS_PAGE_SIZE = 100;

/** `ledger keys list` and `ledger keys revoke`, audited like `keys create`. */
export function registerKeyCommands(keys: Command, withUseCases: WithUseCases): void {
  keys
    .command('list')
    .description("print the tenant's API keys, newest first (never their secrets)")
    .requiredOption('--tenant <id>', 'tenant id')
    .action(async (options: { tenant: string }) => {
      await withUseCases(async (context) => {
        let cursor: string | undefined;
        do {
          const page = await context
            .get(ListApiKeysUseCase)
            .execute({ tenantId: options.tenant, cursor, limit: KEYS_PAGE_SIZE });
          for (const key of page.data) {
            const state = key.revokedAt !== null ? `revoked ${key.revokedAt}` : `expires ${key.expiresAt ?? 'never'}`;
            console.log(`${key.id}  ${key.roles.join(',')}  created ${key.createdAt}  ${state}  ${key.name}`);
          }
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined);
      });
    });
  keys
    .command('revoke <keyId>')
    .description(
      "revoke an API key: refused from then on (API processes within LEDGER_KEY_CACHE_SECONDS); the tenant's last " +
        'live admin key cannot be revoked',
    )
    .requiredOption('--tenant <id>', 'tenant id')
    .action(async (keyId: string, options: { tenant: string }) => {
      const revoked = await withUseCases((context) =>
        context
          .get(AuditTrail)
          .record(
            { actor: cliActor(), action: 'api_key.revoke', tenantId: options.tenant, targetId: keyId, request: {} },
            () => context.get(RevokeApiKeyUseCase).execute({ tenantId: options.tenant, id: keyId }),
          ),
      );
      console.log(`key ${revoked.id} revoked ${revoked.revokedAt}`);
    });
}
