import { describe, expect, it } from 'vitest';
import { textInput } from '../../test/statement-files';
import { collectStatement } from '../parse';
import { parseInformation } from './mt940-information';

const info = (text: string) => parseInformation(text.split('\n'));

describe(':86: GVC layout (?NN subfields)', () => {
  it('reads the counterparty from ?30 bank code, ?31 account, ?32/?33 name, and keeps the GVC', () => {
    const parsed = info(
      '166?00GUTSCHRIFT?20SVWZ+Invoice 7?30COBADEFFXXX?31DE02100100109307118603\n?32Muster Handels?33gesellschaft mbH',
    );
    expect(parsed).toEqual({
      description: 'GUTSCHRIFT Invoice 7',
      references: {},
      counterparty: {
        bankCode: 'COBADEFFXXX',
        account: 'DE02100100109307118603',
        name: 'Muster Handelsgesellschaft mbH',
      },
      businessCode: '166',
    });
  });

  it('reads EREF+, MREF+, KREF+ as references, NOTPROVIDED as none, CRED+ neither reference nor text', () => {
    const parsed = info(
      '105?00BASISLASTSCHRIFT?20EREF+E-1?21MREF+M-2?22CRED+DE98ZZZ09999999999?23KREF+NOTPROVIDED?24SVWZ+Rent',
    );
    expect(parsed.references).toEqual({ endToEndId: 'E-1', mandateId: 'M-2' });
    expect(parsed.description).toBe('BASISLASTSCHRIFT Rent');
  });

  it('reads SVWZ+ that follows a keyword in the same subfield, and remittance text over several subfields', () => {
    const parsed = info('166?00GUTSCHRIFT?20EREF+REF-9 SVWZ+Order 4711 of?21 1 March?22 more text');
    expect(parsed.references).toEqual({ endToEndId: 'REF-9' });
    expect(parsed.description).toBe('GUTSCHRIFT Order 4711 of 1 March more text');
  });

  it('continues a reference over a full 27-character subfield into the next one, and only then', () => {
    // cmxl's sample: the 35-character EREF wraps from ?20 into ?21, the MREF from ?22 into ?23.
    const wrapped = info(
      '171?00SEPA LASTSCHRIFT KUNDE?10281?20EREF+TRX-0A4A47C3-F846-4729?21-8A1B-5DF620F' +
        '?22MREF+CAC97D2144174318AC18D9?23BF8',
    );
    expect(wrapped.references).toEqual({
      endToEndId: 'TRX-0A4A47C3-F846-4729-8A1B-5DF620F',
      mandateId: 'CAC97D2144174318AC18D9BF8',
    });
    // Shorter than 27 characters: the reference ended; what follows is text of its own.
    const ended = info('166?20EREF+SHORT?21Thank you');
    expect(ended).toMatchObject({ references: { endToEndId: 'SHORT' }, description: 'Thank you' });
    // A full subfield that is followed by a non-adjacent one (?20, then ?60) does not continue either.
    const apart = info('105?20EREF+123/123/12345-----L110?60000000012345');
    expect(apart).toMatchObject({ references: { endToEndId: '123/123/12345-----L110' }, description: '000000012345' });
  });

  it('reads ABWA+ and ABWE+ as the ultimate debtor and creditor, not as text', () => {
    const parsed = info(
      '116?00SEPA-UEBERWEISUNG?20SVWZ+Salary 03?21ABWA+Payroll Services Ltd?22ABWE+Jane Doe?32Employer AG',
    );
    expect(parsed.counterparty).toEqual({
      name: 'Employer AG',
      ultimateDebtor: 'Payroll Services Ltd',
      ultimateCreditor: 'Jane Doe',
    });
    expect(parsed.description).toBe('SEPA-UEBERWEISUNG Salary 03');
  });

  it('reads the ">NN" separator of Triodos the same way', () => {
    const parsed = info('000>201234567890 Name>31NL12TRIO0123456789>32J. Jansen');
    expect(parsed).toMatchObject({
      businessCode: '000',
      description: '1234567890 Name',
      counterparty: { account: 'NL12TRIO0123456789', name: 'J. Jansen' },
    });
  });
});

describe(':86: slash layout (/KEY/value)', () => {
  it('reads EREF, MARF, IREF, the CNTP account, BIC and name, and the REMI text', () => {
    const parsed = info(
      '/EREF/PAY-88//MARF/MANDATE-1//IREF/INS-2//CNTP/NL91ABNA0417164300/ABNANL2A/Supplier BV/AMSTE\n' +
        'RDAM//REMI/USTD//Order 88 payment/',
    );
    expect(parsed).toEqual({
      description: 'Order 88 payment',
      references: { endToEndId: 'PAY-88', mandateId: 'MANDATE-1', instructionId: 'INS-2' },
      counterparty: {
        name: 'Supplier BV',
        account: 'NL91ABNA0417164300',
        bankCode: 'ABNANL2A',
        ultimateDebtor: undefined,
        ultimateCreditor: undefined,
      },
    });
  });

  it('reads the name of /BENM//NAME/ or /ORDP//NAME/ where there is no CNTP, and /ULTD/ /ULTC/ names', () => {
    const debit = info(
      '/EREF/E-7//BENM//NAME/Office Supplies Ltd/ADDR/London//REMI/Invoice 12//ULTD//NAME/Group Holding/',
    );
    expect(debit.counterparty).toMatchObject({ name: 'Office Supplies Ltd', ultimateDebtor: 'Group Holding' });
    expect(debit.description).toBe('Invoice 12');
    const credit = info('/ORDP//NAME/Customer GmbH/ID/123//REMI/USTD//Order 5//ULTC/Shop Two/ID-9/');
    expect(credit.counterparty).toMatchObject({ name: 'Customer GmbH', ultimateCreditor: 'Shop Two' });
    expect(credit.references.endToEndId).toBeUndefined();
  });
});

describe(':86: in a statement', () => {
  it('gives the line its references, counterparty and the SWIFT type with the GVC', async () => {
    const file =
      ':20:S\n:25:DE89370400440532013000\n:28C:1\n:60F:C240101EUR0,\n:61:240102C10,NTRFNONREF\n' +
      ':86:166?00GUTSCHRIFT?20EREF+E2E-1 SVWZ+Invoice 1?30COBADEFF?31DE02100100109307118603?32Payer\n' +
      ':62F:C240102EUR10,\n';
    const { lines, errors } = await collectStatement('mt940', textInput(file), { linesMax: 10 });
    expect(errors).toEqual([]);
    expect(lines[0]).toMatchObject({
      typeCode: 'NTRF/166',
      references: { endToEndId: 'E2E-1' },
      counterparty: { name: 'Payer', account: 'DE02100100109307118603', bankCode: 'COBADEFF' },
      description: 'GUTSCHRIFT Invoice 1',
    });
  });
});
