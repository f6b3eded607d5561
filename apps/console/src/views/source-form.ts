import { html, type TemplateResult } from 'lit-html';
import { api } from '../api-client';
import { apiPath } from '../api-path';
import type { Source } from '../api-types';
import { explainError, notice } from './states';

type Charset = NonNullable<Source['charset']>;

/** Every charset a source may name (the API's list); a new one fails the type check until listed here. */
const CHARSETS = ['utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-2', 'windows-1250'] as const satisfies Charset[];
type Assert<Condition extends true> = Condition;
export type SourceFormListsEveryCharset = Assert<
  [Exclude<Charset, (typeof CHARSETS)[number]>] extends [never] ? true : false
>;

const CHARSET_LABELS: Record<Charset, string> = {
  'utf-8': 'UTF-8 only',
  'iso-8859-1': 'ISO-8859-1 (Latin-1)',
  'windows-1252': 'Windows-1252 (Western Europe)',
  'iso-8859-2': 'ISO-8859-2 (Central Europe)',
  'windows-1250': 'Windows-1250 (Polish, Hungarian, Czech)',
};

/** The built-in formats; "detect" sends none, so that each file is read in the format its first bytes show. */
const FORMATS: Array<[string, string]> = [
  ['', 'Detect from each file'],
  ['camt053', 'camt.053 (ISO 20022)'],
  ['mt940', 'MT940 (SWIFT)'],
  ['csv:bank', 'Bank CSV (csv:bank)'],
  ['csv:gateway', 'Gateway CSV (csv:gateway)'],
];

export type SourceFormState =
  | { state: 'idle' }
  | { state: 'sending' }
  | { state: 'created'; name: string }
  | { state: 'refused'; error: unknown };

function outcome(state: SourceFormState): TemplateResult {
  if (state.state === 'created') return notice(`Source ${state.name} created.`);
  if (state.state === 'refused') return notice(explainError(state.error), 'error');
  return html``;
}

/** The body of POST /v1/sources from the form: format and charset only when chosen. */
function sourceBody(form: FormData): Record<string, string> {
  const body: Record<string, string> = { name: String(form.get('name')), account: String(form.get('account')) };
  const format = String(form.get('format') ?? '');
  const charset = String(form.get('charset') ?? '');
  if (format !== '') body.format = format;
  if (charset !== '') body.charset = charset;
  return body;
}

/**
 * A form that creates a statement source. `changed` hears each state, so that the page draws it and, once
 * a source is created, lists it among the sources to upload to.
 */
export function sourceForm(state: SourceFormState, changed: (next: SourceFormState) => void): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const body = sourceBody(new FormData(form));
    changed({ state: 'sending' });
    api.post<Source>(apiPath`/v1/sources`, body).then(
      (created) => {
        form.reset();
        changed({ state: 'created', name: created.name });
      },
      (error: unknown) => changed({ state: 'refused', error }),
    );
  };
  return html`<details class="new-source" ?open=${state.state !== 'idle'}>
    <summary>Add a statement source</summary>
    <form class="upload" @submit=${submit}>
      <label for="source-name">Name</label>
      <input id="source-name" name="name" required maxlength="64" placeholder="bank-eur" />
      <label for="source-account">Ledger account</label>
      <input id="source-account" name="account" required placeholder="assets:bank" />
      <label for="source-format">Format of its files</label>
      <select id="source-format" name="format">
        ${FORMATS.map(([value, label]) => html`<option value=${value}>${label}</option>`)}
      </select>
      <label for="source-charset">Charset when not UTF-8</label>
      <select id="source-charset" name="charset" aria-describedby="source-charset-hint">
        <option value="">The format's default</option>
        ${CHARSETS.map((charset) => html`<option value=${charset}>${CHARSET_LABELS[charset]}</option>`)}
      </select>
      <p id="source-charset-hint" class="hint">
        UTF-8 (with or without BOM) is always recognised. The default for text that is not: Windows-1252 for
        MT940, none (refused) for the other formats.
      </p>
      <button type="submit" ?disabled=${state.state === 'sending'}>Create source</button>
    </form>
    ${outcome(state)}
  </details>`;
}
