import { describe, expect, it } from 'vitest';
import { NO_FAULTS } from './faults';
import { loadSimSettings } from './sim-settings';

describe('loadSimSettings', () => {
  it('has defaults for a development run', () => {
    expect(loadSimSettings({})).toEqual({
      host: '127.0.0.1',
      port: 4100,
      secret: 'sim_secret_dev',
      webhookUrl: null,
      webhookSecret: 'sim_webhook_dev',
      faults: NO_FAULTS,
      seed: undefined,
      executeDelayMs: 0,
    });
  });

  it('reads each variable', () => {
    const settings = loadSimSettings({
      PROVIDER_SIM_PORT: '0',
      PROVIDER_SIM_WEBHOOK_URL: 'http://127.0.0.1:3000/v1/payment-webhooks/sim',
      PROVIDER_SIM_FAULTS: 'reject=0.5',
      PROVIDER_SIM_SEED: 'run-7',
      PROVIDER_SIM_EXECUTE_DELAY_MS: '250',
    });
    expect(settings).toMatchObject({ port: 0, seed: 'run-7', executeDelayMs: 250, faults: { reject: 0.5 } });
    expect(settings.webhookUrl).toBe('http://127.0.0.1:3000/v1/payment-webhooks/sim');
  });

  it('names every bad variable', () => {
    expect(() => loadSimSettings({ PROVIDER_SIM_PORT: '70000', PROVIDER_SIM_WEBHOOK_URL: 'not a url' })).toThrow(
      /PROVIDER_SIM_PORT.*PROVIDER_SIM_WEBHOOK_URL/,
    );
    expect(() => loadSimSettings({ PROVIDER_SIM_FAULTS: 'timeout=0.1' })).toThrow(/PROVIDER_SIM_FAULTS/);
    expect(() => loadSimSettings({ PROVIDER_SIM_EXECUTE_DELAY_MS: '-1' })).toThrow(/EXECUTE_DELAY/);
  });
});
