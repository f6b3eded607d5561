import { describe, expect, it } from 'vitest';
import { ownStrings } from '../own-text';
import { ownTransactionDetail, type TransactionDetail } from './camt053-transaction';

describe('ownTransactionDetail', () => {
  it('copies and counts every string of a detail as ownStrings does', () => {
    const chunk = `${'x'.repeat(100)}E2E-REFERENCE-0001 Invoice 2024-0001 of the first quarter`;
    const detail: TransactionDetail = {
      line: 7,
      amount: { text: '12.50', currency: 'EUR', line: 8 },
      creditDebit: { text: 'CRDT', line: 9 },
      references: {
        endToEndId: chunk.slice(100, 118),
        instructionId: 'INSTR-1',
        transactionId: undefined,
        mandateId: 'MANDATE-000001',
        accountServicerRef: 'ASR-1',
        customerReference: 'RF18539007547034',
      },
      debtor: { name: 'A Debtor With A Long Name', account: 'DE89370400440532013000' },
      creditor: { name: undefined, account: undefined },
      remittance: chunk.slice(119),
      additionalInfo: 'info',
      typeCode: 'PMNT/RCDT/ESCT',
      raw: `<TxDtls>${chunk}</TxDtls>`,
    };
    const expected = ownStrings(detail);
    const copied = ownTransactionDetail(detail);
    expect(copied).toEqual(expected);
    expect(copied.chars).toBeGreaterThan(200);
  });
});
