import { prepareTemplateDatabase } from '@ledger/db';

export default async function globalSetup(): Promise<void> {
  await prepareTemplateDatabase();
}
