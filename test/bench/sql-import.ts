import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { StatementFormat } from './statement-files';
import { uuidV7 } from './workloads';

// The import baseline: the file's lines, already known as rows (no reading, no parsing, no decimal
// conversion, no line identity hashing), inserted into statement_lines by plain SQL in chunks of typed
// arrays, inside the import row's own transaction as the schema demands (lines name an open import).
// Triggers, the unique (source, external id) index and ON CONFLICT DO NOTHING are the same as the API's.

const LINES_PER_STATEMENT = 5_000;

const OPEN_IMPORT = `INSERT INTO statement_imports (tenant_id, id, source_id, format, actor)
VALUES ($1, $2, $3, $4, 'bench')`;

const INSERT_LINES = `
INSERT INTO statement_lines (tenant_id, id, source_id, import_id, external_id, line_number, statement_index,
                             booked_on, amount_minor, currency, refs, description, raw)
SELECT $1, l.id, $2, $3, l.external_id, l.line_number, 0, l.booked_on, l.amount_minor, $4, l.refs::jsonb,
       l.description, l.raw
  FROM unnest($5::uuid[], $6::text[], $7::int4[], $8::date[], $9::int8[], $10::text[], $11::text[], $12::text[])
       AS l(id, external_id, line_number, booked_on, amount_minor, refs, description, raw)
ON CONFLICT (tenant_id, source_id, external_id) DO NOTHING`;

const COMPLETE_IMPORT = `
UPDATE statement_imports
   SET file_sha256 = $3, file_bytes = $4, lines = $5, duplicates = 0, statements = '[]', warnings = '[]',
       completed_at = now()
 WHERE tenant_id = $1 AND id = $2`;

interface LineChunk {
  ids: string[];
  externalIds: string[];
  lineNumbers: number[];
  bookedOns: string[];
  amountsMinor: string[];
  references: string[];
  descriptions: string[];
  raws: string[];
}

function chunkOf(format: StatementFormat, start: number, end: number): LineChunk {
  const chunk: LineChunk = {
    ids: [],
    externalIds: [],
    lineNumbers: [],
    bookedOns: [],
    amountsMinor: [],
    references: [],
    descriptions: [],
    raws: [],
  };
  for (let index = start; index < end; index++) {
    const line = format.line(index);
    chunk.ids.push(uuidV7());
    chunk.externalIds.push(line.externalId);
    chunk.lineNumbers.push(index + 1);
    chunk.bookedOns.push(line.bookedOn);
    chunk.amountsMinor.push(line.amountMinor.toString());
    chunk.references.push(JSON.stringify(line.references));
    chunk.descriptions.push(line.description);
    chunk.raws.push(line.raw);
  }
  return chunk;
}

/** Loads `count` lines of `format` into the source in one transaction; answers the lines stored. */
export async function loadLinesBySql(
  pool: pg.Pool,
  tenantId: string,
  sourceId: string,
  format: StatementFormat,
  count: number,
  fileBytes: number,
): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
    const importId = uuidV7();
    await client.query(OPEN_IMPORT, [tenantId, importId, sourceId, format.sourceFormat]);
    let stored = 0;
    for (let start = 0; start < count; start += LINES_PER_STATEMENT) {
      const chunk = chunkOf(format, start, Math.min(count, start + LINES_PER_STATEMENT));
      const inserted = await client.query(INSERT_LINES, [
        tenantId,
        sourceId,
        importId,
        format.currency,
        chunk.ids,
        chunk.externalIds,
        chunk.lineNumbers,
        chunk.bookedOns,
        chunk.amountsMinor,
        chunk.references,
        chunk.descriptions,
        chunk.raws,
      ]);
      stored += inserted.rowCount ?? 0;
    }
    // The baseline does not hash the file: a random value stands in for its sha256.
    await client.query(COMPLETE_IMPORT, [tenantId, importId, randomBytes(32), fileBytes, stored]);
    await client.query('COMMIT');
    return stored;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
