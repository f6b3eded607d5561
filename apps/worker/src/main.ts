import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@ledger/config';
import { openMigratedDatabase } from '@ledger/db';
import { JobsModule } from '@ledger/jobs';

async function main(): Promise<void> {
  const config = loadConfig();
  const { database, warnings } = await openMigratedDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    analyzeCheckMs: config.analyzeCheckSeconds * 1000,
  });
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  const app = await NestFactory.createApplicationContext(
    JobsModule.forRoot(database, {
      reconcileCron: config.reconcileCron,
      runLeaseSeconds: config.reconcileRunLeaseSeconds,
      events: config.events,
    }),
  );
  await app.init();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app
        .close()
        .then(() => database.close())
        .finally(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
