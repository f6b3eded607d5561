import { describe, expect, it } from 'vitest';
import { bindParameters, sql } from './sql-statement';

describe('sql statements with named parameters', () => {
  it('numbers each distinct name once, in order of first use, and binds by name', () => {
    const statement = sql<{ tenantId: string; code: string }>(
      'SELECT id FROM accounts WHERE tenant_id = :tenantId AND code = :code AND tenant_id = :tenantId',
    );
    expect(statement.text).toBe('SELECT id FROM accounts WHERE tenant_id = $1 AND code = $2 AND tenant_id = $1');
    expect(bindParameters(statement, { code: 'cash', tenantId: 't' })).toEqual(['t', 'cash']);
  });

  it('leaves casts, string literals, quoted identifiers and comments alone', () => {
    const statement = sql<{ ids: string[]; tenantId: string }>(`
      SELECT pg_advisory_xact_lock(hashtextextended(:tenantId::text || ':ref:' || ref, 0)) AS "a:b"
        FROM unnest(:ids::text[]) AS ref -- not :here
       /* nor :there */ WHERE 'it''s :not' <> ref`);
    expect(statement.parameterNames).toEqual(['tenantId', 'ids']);
    expect(statement.text).toContain('hashtextextended($1::text || \':ref:\' || ref, 0)) AS "a:b"');
    expect(statement.text).toContain('unnest($2::text[])');
    expect(statement.text).toContain("-- not :here\n       /* nor :there */ WHERE 'it''s :not' <> ref");
  });

  it('refuses positional placeholders, and a missing parameter when bound', () => {
    expect(() => sql('SELECT $1')).toThrow(/name them/);
    const statement = sql<{ id: string; note: string | null }>('UPDATE t SET note = :note WHERE id = :id');
    expect(() => bindParameters(statement, { id: 'x' })).toThrow(/:note is missing/);
    expect(bindParameters(statement, { id: 'x', note: null })).toEqual([null, 'x']);
  });

  it('keeps dollar-quoted bodies as written', () => {
    const statement = sql('DO $body$ BEGIN PERFORM 1 WHERE :a IS NULL; END $body$');
    expect(statement.parameterNames).toEqual([]);
  });
});
