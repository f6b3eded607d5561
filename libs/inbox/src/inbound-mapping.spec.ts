import { describe, expect, it } from 'vitest';
import { type PostingTemplate, inboundMappingsSchema, postingRequestOf } from './inbound-mapping';

const template: PostingTemplate = {
  description: 'card payment',
  externalRef: '$.data.payment',
  entries: [
    { account: 'assets:gateway', direction: 'debit', amount: '$.data.amount', currency: '$.data.currency' },
    { account: 'revenue:sales', direction: 'credit', amount: '$.data.amount', currency: '$.data.currency' },
  ],
};

describe('inbound mappings', () => {
  it('reads $.paths from the message and takes other values literally', () => {
    const request = postingRequestOf(
      template,
      { id: 'msg_1', type: 'payment.succeeded', data: { payment: 'pay_9', amount: 1250, currency: 'EUR' } },
      'psp',
    );
    expect(request).toMatchObject({
      externalRef: 'pay_9',
      description: 'card payment',
      metadata: { inbound: { source: 'psp', messageId: 'msg_1', type: 'payment.succeeded' } },
      entries: [
        { account: 'assets:gateway', direction: 'debit', amount: '1250', currency: 'EUR' },
        { account: 'revenue:sales', direction: 'credit', amount: '1250', currency: 'EUR' },
      ],
    });
  });

  it('refuses a message without a mapped field, or with an inexact amount', () => {
    expect(() =>
      postingRequestOf(template, { id: 'm', type: 't', data: { payment: 'p', currency: 'EUR' } }, 'psp'),
    ).toThrow(/data.amount/);
    expect(() =>
      postingRequestOf(template, { id: 'm', type: 't', data: { payment: 'p', amount: 12.5, currency: 'EUR' } }, 'psp'),
    ).toThrow(/data.amount/);
    expect(() =>
      postingRequestOf(
        template,
        { id: 'm', type: 't', data: { payment: 'p', amount: 1, currency: 'EUR', __proto__: { x: 1 } } },
        'psp',
      ),
    ).not.toThrow();
  });

  it('validates mappings: at least two entries, known directions', () => {
    expect(inboundMappingsSchema.safeParse({ 'payment.succeeded': template }).success).toBe(true);
    expect(
      inboundMappingsSchema.safeParse({ 'payment.succeeded': { entries: template.entries.slice(0, 1) } }).success,
    ).toBe(false);
    expect(inboundMappingsSchema.safeParse({ 'bad type!': template }).success).toBe(false);
  });
});
