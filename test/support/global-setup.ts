import { prepareTemplateDatabase } from '@ledger/db';

/** Migrates one template database for this run; every test file copies it. Dropped at the end. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  return prepareTemplateDatabase();
}
