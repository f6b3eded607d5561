import type { PlannedEntry } from '../domain/posting-plan';
import type { EntryView } from './transaction.view';

export function plannedEntryView(entry: PlannedEntry): EntryView {
  return {
    leg: entry.leg,
    accountId: entry.accountId,
    accountCode: entry.accountCode,
    direction: entry.direction,
    amount: entry.amountMinor.toString(),
    currency: entry.currency,
  };
}
