import { type DynamicModule, Global, Module } from '@nestjs/common';

export const RECONCILIATION_SETTINGS = Symbol('RECONCILIATION_SETTINGS');

export interface ReconciliationSettings {
  /** A running run that has not beaten for this long is taken for dead (its process stopped) and given up. */
  runLeaseSeconds: number;
}

/** The deployment's reconciliation settings (from the validated configuration), for every module that runs runs. */
@Global()
@Module({})
export class ReconciliationSettingsModule {
  static forRoot(settings: ReconciliationSettings): DynamicModule {
    return {
      module: ReconciliationSettingsModule,
      providers: [{ provide: RECONCILIATION_SETTINGS, useValue: settings }],
      exports: [RECONCILIATION_SETTINGS],
    };
  }
}
