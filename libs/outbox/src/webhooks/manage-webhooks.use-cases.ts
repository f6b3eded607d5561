import { Inject, Injectable } from '@nestjs/common';
import { decodeIdCursor, encodeCursor } from '@ledger/db';
import { isUuid, newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { EventType } from '../outbox-event';
import { WEBHOOK_SETTINGS, type WebhookSettings } from './webhook-settings';
import { newSigningSecret } from './webhook-signature';
import { assertAllowedTarget, parseWebhookUrl } from './webhook-target';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';
import { type WebhookView, webhookView } from './webhook.views';

export const WEBHOOKS_PER_PAGE_MAX = 100;

export function webhookNotFound(id: string): DomainError {
  return new DomainError('NOT_FOUND', `no webhook ${id}`);
}

/** A subscription, within the tenant's cap; its secret is in this answer only (and in a rotation's). */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly webhooks: WebhookSubscriptionRepository,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute(command: {
    tenantId: string;
    url: string;
    events: readonly EventType[];
  }): Promise<WebhookView & { secret: string }> {
    const url = parseWebhookUrl(command.url);
    await assertAllowedTarget(url, this.settings.allowPrivateTargets);
    const secret = newSigningSecret();
    const subscription = {
      tenantId: command.tenantId,
      id: newId(),
      url: url.toString(),
      eventTypes: [...new Set(command.events)],
      secret,
    };
    const row = await this.webhooks.create(subscription, this.settings.subscriptionsMax);
    if (!row)
      throw new DomainError(
        'WEBHOOK_LIMIT_REACHED',
        `a tenant may have at most ${this.settings.subscriptionsMax} webhooks; delete one to add another`,
        { subscriptionsMax: this.settings.subscriptionsMax },
      );
    return { ...webhookView(row), secret };
  }
}

@Injectable()
export class ListWebhooksUseCase {
  constructor(private readonly webhooks: WebhookSubscriptionRepository) {}

  async execute(command: {
    tenantId: string;
    cursor?: string;
    limit: number;
  }): Promise<{ data: WebhookView[]; nextCursor: string | null }> {
    const limit = Math.min(command.limit, WEBHOOKS_PER_PAGE_MAX);
    const rows = await this.webhooks.list(
      command.tenantId,
      command.cursor === undefined ? undefined : decodeIdCursor(command.cursor),
      limit,
    );
    return { data: rows.map(webhookView), nextCursor: rows.length === limit ? encodeCursor([rows.at(-1)!.id]) : null };
  }
}

@Injectable()
export class DeleteWebhookUseCase {
  constructor(private readonly webhooks: WebhookSubscriptionRepository) {}

  /** Its queued deliveries go with it. */
  async execute(command: { tenantId: string; id: string }): Promise<void> {
    if (!isUuid(command.id) || !(await this.webhooks.delete(command.tenantId, command.id)))
      throw webhookNotFound(command.id);
  }
}

/**
 * A new secret signs from now on; the previous one keeps signing beside it (a second `v1`) for the
 * grace period, so the receiver can switch to the new secret whenever it likes within it.
 */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly webhooks: WebhookSubscriptionRepository,
    @Inject(WEBHOOK_SETTINGS) private readonly settings: WebhookSettings,
  ) {}

  async execute(command: { tenantId: string; id: string }): Promise<WebhookView & { secret: string }> {
    if (!isUuid(command.id)) throw webhookNotFound(command.id);
    const secret = newSigningSecret();
    const row = await this.webhooks.rotateSecret(command.tenantId, command.id, secret, this.settings.secretGraceHours);
    if (!row) throw webhookNotFound(command.id);
    return { ...webhookView(row), secret };
  }
}
