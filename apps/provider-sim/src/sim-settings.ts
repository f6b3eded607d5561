import { z } from 'zod';
import { type Faults, FaultsError, parseFaults } from './faults';

export interface SimSettings {
  host: string;
  port: number;
  /** The bearer token every /v1 request must carry. */
  secret: string;
  /** Where webhooks go; null sends none. */
  webhookUrl: string | null;
  webhookSecret: string;
  faults: Faults;
  /** Seeds the fault draws and delays so that a run repeats; undefined draws a random seed. */
  seed: string | undefined;
  /** 0 executes inside the submit request; more answers `pending` and executes this much later. */
  executeDelayMs: number;
}

/** A delayed execution later than an hour is not a simulation anyone waits for. */
export const EXECUTE_DELAY_MS_MAX = 3_600_000;
const SECRET_CHARS_MAX = 255;

const secret = z.string().min(1).max(SECRET_CHARS_MAX);
const envSchema = z.object({
  PROVIDER_SIM_HOST: z.string().min(1).default('127.0.0.1'),
  PROVIDER_SIM_PORT: z.coerce.number().int().min(0).max(65_535).default(4100),
  PROVIDER_SIM_SECRET: secret.default('sim_secret_dev'),
  PROVIDER_SIM_WEBHOOK_URL: z.url({ protocol: /^https?$/ }).optional(),
  PROVIDER_SIM_WEBHOOK_SECRET: secret.default('sim_webhook_dev'),
  PROVIDER_SIM_FAULTS: z.string().default(''),
  PROVIDER_SIM_SEED: z.string().min(1).max(SECRET_CHARS_MAX).optional(),
  PROVIDER_SIM_EXECUTE_DELAY_MS: z.coerce.number().int().min(0).max(EXECUTE_DELAY_MS_MAX).default(0),
});

/** Reads the simulator's settings from an environment; throws one error naming every bad variable. */
export function loadSimSettings(env: Record<string, string | undefined>): SimSettings {
  // An empty variable is an unset one, as a shell's `VAR= cmd` means.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`provider simulator settings: ${problems.join('; ')}`);
  }
  let faults: Faults;
  try {
    faults = parseFaults(parsed.data.PROVIDER_SIM_FAULTS);
  } catch (error) {
    if (error instanceof FaultsError)
      throw new Error(`provider simulator settings: PROVIDER_SIM_FAULTS: ${error.message}`);
    throw error;
  }
  return {
    host: parsed.data.PROVIDER_SIM_HOST,
    port: parsed.data.PROVIDER_SIM_PORT,
    secret: parsed.data.PROVIDER_SIM_SECRET,
    webhookUrl: parsed.data.PROVIDER_SIM_WEBHOOK_URL ?? null,
    webhookSecret: parsed.data.PROVIDER_SIM_WEBHOOK_SECRET,
    faults,
    seed: parsed.data.PROVIDER_SIM_SEED,
    executeDelayMs: parsed.data.PROVIDER_SIM_EXECUTE_DELAY_MS,
  };
}
