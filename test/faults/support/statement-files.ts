/** A bank CSV (the built-in csv:bank profile) of `lines` distinct movements, each with its own reference. */
export function bankStatementCsv(lines: number, referencePrefix: string): string {
  const day = new Date(Date.now() - 24 * 3600 * 1000).toISOString().slice(0, 10);
  const rows = ['date,value date,description,amount,currency,reference,counterparty'];
  for (let line = 1; line <= lines; line++) {
    const amountMinor = 100 + (line % 9_900);
    const amount = `${Math.floor(amountMinor / 100)}.${String(amountMinor % 100).padStart(2, '0')}`;
    rows.push(`${day},${day},Card payment ${line},${amount},USD,${referencePrefix}-${line},Customer ${line % 97}`);
  }
  return `${rows.join('\n')}\n`;
}

/** POST /v1/imports as the console sends it (multipart); throws only when no answer came. */
export async function uploadStatement(
  baseUrl: string,
  key: string,
  idempotencyKey: string,
  source: string,
  fileName: string,
  content: string,
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  form.set('source', source);
  const response = await fetch(`${baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': idempotencyKey },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}
