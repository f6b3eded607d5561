import assert from 'node:assert/strict';

/**
 * One SQL statement, readable whole, with named parameters (`:tenantId`) and a typed row.
 *
 * The text is compiled once, when the module that declares it loads: each distinct name becomes one
 * positional placeholder (`$1`, `$2`, ...) and the statement remembers the order, so callers pass an
 * object and nobody keeps parallel arrays in step. Statements that share a part (the outbox insert in
 * the posting statement) are composed as text before they are compiled: a name is a name wherever it
 * appears.
 */
export interface SqlStatement<Params extends object, Row extends object> {
  /** The text sent to PostgreSQL, with positional placeholders. */
  readonly text: string;
  /** The parameter for `$n` is `params[parameterNames[n - 1]]`. */
  readonly parameterNames: readonly string[];
  /** Never set: carries the row and parameter types to `Database.query`. */
  readonly types?: { params: Params; row: Row };
}

/** The parameters of a statement that takes none. */
export type NoParams = Record<never, never>;

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

/** Where a literal, quoted identifier or comment that starts at `index` ends, or -1 if none starts there. */
function skippedUntil(source: string, index: number): number {
  const char = source[index];
  const next = source[index + 1];
  if (char === "'" || char === '"') {
    let end = index + 1;
    for (;;) {
      end = source.indexOf(char, end);
      assert.ok(end !== -1, `unclosed ${char} in SQL: ${source.slice(index, index + 40)}`);
      if (source[end + 1] !== char) return end + 1;
      end += 2; // a doubled quote stands for itself
    }
  }
  if (char === '-' && next === '-') {
    const end = source.indexOf('\n', index);
    return end === -1 ? source.length : end;
  }
  if (char === '/' && next === '*') {
    const end = source.indexOf('*/', index + 2);
    assert.ok(end !== -1, 'unclosed comment in SQL');
    return end + 2;
  }
  if (char === '$') {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(source.slice(index));
    if (tag !== null) {
      const end = source.indexOf(tag[0], index + tag[0].length);
      assert.ok(end !== -1, 'unclosed dollar-quoted string in SQL');
      return end + tag[0].length;
    }
    assert.ok(!/[0-9]/.test(next ?? ''), 'positional parameters ($1) are not used here: name them (:tenantId)');
  }
  return -1;
}

/** Declares a statement; see `SqlStatement`. */
export function sql<Params extends object = NoParams, Row extends object = Record<string, unknown>>(
  source: string,
): SqlStatement<Params, Row> {
  const parameterNames: string[] = [];
  let text = '';
  let index = 0;
  while (index < source.length) {
    const skipped = skippedUntil(source, index);
    if (skipped !== -1) {
      text += source.slice(index, skipped);
      index = skipped;
      continue;
    }
    const char = source[index]!;
    const isParameter = char === ':' && source[index - 1] !== ':' && NAME_START.test(source[index + 1] ?? '');
    if (!isParameter) {
      text += char;
      index += 1;
      continue;
    }
    let end = index + 1;
    while (end < source.length && NAME_PART.test(source[end]!)) end += 1;
    const name = source.slice(index + 1, end);
    let position = parameterNames.indexOf(name);
    if (position === -1) position = parameterNames.push(name) - 1;
    text += `$${position + 1}`;
    index = end;
  }
  return { text, parameterNames };
}

/** The positional values of a statement's named parameters; a missing one is a programming error. */
export function bindParameters(statement: SqlStatement<object, object>, params: object): unknown[] {
  const record = params as Record<string, unknown>;
  const values = new Array<unknown>(statement.parameterNames.length);
  for (let index = 0; index < values.length; index++) {
    const name = statement.parameterNames[index]!;
    const value = record[name];
    assert.ok(value !== undefined, `SQL parameter :${name} is missing (pass null for NULL)`);
    values[index] = value;
  }
  return values;
}
