import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { LOCK_TENANT_SUBSCRIPTIONS, ROTATE_SECRET, type WebhookRow } from './webhook-subscriptions.sql';

const WEBHOOK_ROW = {
  id: true,
  url: true,
  eventTypes: true,
  createdAt: true,
  previousSecretExpiresAt: true,
  consecutiveFailures: true,
  parkedUntil: true,
} as const;

/** Webhook subscriptions: Prisma Client, but for the secret rotation (see ROTATE_SECRET). */
@Injectable()
export class WebhookSubscriptionRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when the tenant has `subscriptionsMax` already (counted under the tenant's creation lock). */
  create(
    subscription: { tenantId: string; id: string; url: string; eventTypes: readonly string[]; secret: string },
    subscriptionsMax: number,
  ): Promise<WebhookRow | undefined> {
    return this.db.transaction('read committed', async () => {
      await this.db.query(LOCK_TENANT_SUBSCRIPTIONS, { tenantId: subscription.tenantId });
      const existing = await this.db.prisma.webhookSubscription.count({ where: { tenantId: subscription.tenantId } });
      if (existing >= subscriptionsMax) return undefined;
      return this.db.prisma.webhookSubscription.create({
        data: { ...subscription, eventTypes: [...subscription.eventTypes] },
        select: WEBHOOK_ROW,
      });
    });
  }

  /** In id order, after `afterId` when given. */
  list(tenantId: string, afterId: string | undefined, limit: number): Promise<WebhookRow[]> {
    return this.db.prisma.webhookSubscription.findMany({
      where: { tenantId, ...(afterId === undefined ? {} : { id: { gt: afterId } }) },
      orderBy: { id: 'asc' },
      take: limit,
      select: WEBHOOK_ROW,
    });
  }

  async get(tenantId: string, id: string): Promise<WebhookRow | undefined> {
    const row = await this.db.prisma.webhookSubscription.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: WEBHOOK_ROW,
    });
    return row ?? undefined;
  }

  /** False when there was none; its deliveries go with it (ON DELETE CASCADE). */
  async delete(tenantId: string, id: string): Promise<boolean> {
    const { count } = await this.db.prisma.webhookSubscription.deleteMany({ where: { tenantId, id } });
    return count === 1;
  }

  async rotateSecret(
    tenantId: string,
    id: string,
    secret: string,
    graceHours: number,
  ): Promise<WebhookRow | undefined> {
    const [row] = await this.db.query(ROTATE_SECRET, { tenantId, id, secret, graceHours });
    return row;
  }
}
