import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { EventFeedRepository, FEED_START, type FeedPosition } from './event-feed.repository';
import type { LedgerEvent } from './outbox-event';

export const EVENT_PAGE_SIZE_MAX = 500;

export interface ListEventsCommand {
  tenantId: string;
  after?: string;
  limit: number;
}

export interface EventPage {
  data: LedgerEvent[];
  /** Where to continue: pass it as `after`; the same cursor when nothing new has committed. */
  nextCursor: string;
}

export function encodeFeedCursor(position: FeedPosition): string {
  return Buffer.from(`${position.xid}.${position.position}`).toString('base64url');
}

export function decodeFeedCursor(cursor: string): FeedPosition {
  const match = /^(\d{1,20})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new DomainError('VALIDATION_FAILED', 'after is not a cursor this feed gave out', {
      fields: [{ path: 'after', message: 'invalid cursor' }],
    });
  return { xid: match[1]!, position: BigInt(match[2]!) };
}

@Injectable()
export class ListEventsUseCase {
  constructor(private readonly events: EventFeedRepository) {}

  async execute(command: ListEventsCommand): Promise<EventPage> {
    const after = command.after === undefined ? FEED_START : decodeFeedCursor(command.after);
    const rows = await this.events.listAfter(command.tenantId, after, Math.min(command.limit, EVENT_PAGE_SIZE_MAX));
    const last = rows.at(-1)?.position ?? after;
    return { data: rows.map((row) => row.event), nextCursor: encodeFeedCursor(last) };
  }
}
