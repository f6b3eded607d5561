import { startProviderSim } from './server';
import { loadSimSettings } from './sim-settings';

// The payment provider simulator: docs/connector-contract.md served honestly, with faults on demand.
async function main(): Promise<void> {
  const settings = loadSimSettings(process.env);
  const sim = await startProviderSim(settings);
  const webhooks = settings.webhookUrl === null ? 'no webhooks' : `webhooks to ${settings.webhookUrl}`;
  console.log(`provider-sim listening on ${sim.url} (${webhooks}; execute delay ${settings.executeDelayMs} ms)`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void sim.close().finally(() => process.exit(0));
    });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
