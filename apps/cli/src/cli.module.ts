import { type DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@ledger/auth';
import { type Database, DatabaseModule } from '@ledger/db';
import { ImportsModule } from '@ledger/imports';
import { LedgerModule } from '@ledger/ledger';
import { ProofsModule } from '@ledger/proofs';
import { ExportsModule } from '@ledger/exports';
import { ReconciliationModule, ReconciliationSettingsModule } from '@ledger/reconciliation';

/** The use cases the CLI runs, on the same database the services use. */
@Module({})
export class CliModule {
  static forRoot(database: Database, signingKey: string | undefined, runLeaseSeconds: number): DynamicModule {
    return {
      module: CliModule,
      imports: [
        DatabaseModule.forRoot(database),
        AuthModule.forRoot({ operatorToken: undefined }),
        LedgerModule,
        ImportsModule,
        ReconciliationSettingsModule.forRoot({ runLeaseSeconds }),
        ReconciliationModule,
        ProofsModule.forRoot({ signingKey }),
        ExportsModule,
      ],
    };
  }
}
