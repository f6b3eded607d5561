import { z } from 'zod';

export const CONNECTOR_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
/** A provider call unanswered after this long is an unknown outcome (asked again by its key). */
export const REQUEST_TIMEOUT_MS_DEFAULT = 10_000;
/** From reservation to the provider's acceptance. */
export const SUBMIT_DEADLINE_SECONDS_DEFAULT = 15 * 60;
/** From acceptance to the provider's confirmation that it paid (bank transfers take days). */
export const SETTLE_DEADLINE_SECONDS_DEFAULT = 3 * 24 * 3600;
const DEADLINE_SECONDS_MAX = 30 * 24 * 3600;

export const registerConnectorSchema = z.strictObject({
  name: z.string().regex(CONNECTOR_NAME_PATTERN, 'letters, digits and _ . : - only, at most 64'),
  kind: z.literal('http'),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .transform((url) => url.replace(/\/+$/, '')),
  secret: z.string().min(8).max(512),
  webhookSecret: z.string().min(8).max(512),
  /** The account the reserved money moves to: what the provider holds or owes for the tenant. */
  clearingAccount: z.string().min(1).max(128),
  requestTimeoutMs: z.number().int().min(100).max(120_000).default(REQUEST_TIMEOUT_MS_DEFAULT),
  submitDeadlineSeconds: z.number().int().min(1).max(DEADLINE_SECONDS_MAX).default(SUBMIT_DEADLINE_SECONDS_DEFAULT),
  settleDeadlineSeconds: z.number().int().min(1).max(DEADLINE_SECONDS_MAX).default(SETTLE_DEADLINE_SECONDS_DEFAULT),
});

export type RegisterConnectorRequest = z.output<typeof registerConnectorSchema>;
