import type { EventDeliveryConfig } from '@ledger/config';

export type WebhookSettings = EventDeliveryConfig['webhooks'];

/** Injection token of the webhook settings (from the validated configuration). */
export const WEBHOOK_SETTINGS = Symbol('WEBHOOK_SETTINGS');
