import { apiPath } from '../api-path';
import { html, type TemplateResult } from 'lit-html';
import { ApiError, type ListPage, api } from '../api-client';
import type { Source, StatementImport } from '../api-types';
import { type Page, canWork } from '../page';
import { link } from '../router';
import { importList } from './import-list';
import { type SourceFormState, sourceForm } from './source-form';
import { sourceLines } from './source-lines';
import { empty, explainError, failure, loading } from './states';

type Upload =
  | { state: 'idle' }
  | { state: 'sending'; fraction: number }
  | { state: 'stored'; result: StatementImport }
  | { state: 'refused'; error: unknown };

/** IMPORT_INVALID lists every line that cannot be read exactly; show them all. */
function refusal(error: unknown): TemplateResult {
  const lines =
    error instanceof ApiError ? ((error.details.errors as { line: number; reason: string }[] | undefined) ?? []) : [];
  return html`<div class="notice error" role="alert">
    <p>${explainError(error)}</p>
    ${
      lines.length
        ? html`<table class="compact"><caption>Lines that cannot be read</caption>
        <thead><tr><th scope="col">Line</th><th scope="col">Reason</th></tr></thead>
        <tbody>${lines.map((line) => html`<tr><td>${line.line}</td><td>${line.reason}</td></tr>`)}</tbody></table>`
        : ''
    }
  </div>`;
}

function uploadState(upload: Upload): TemplateResult {
  switch (upload.state) {
    case 'idle':
      return html``;
    case 'sending':
      return html`<p role="status"><label for="upload-progress">Uploading</label>
        <progress id="upload-progress" max="1" .value=${upload.fraction}></progress>
        ${Math.round(upload.fraction * 100)} %</p>`;
    case 'stored':
      return html`<p class="notice ok" role="status">
        Imported ${upload.result.lines} line(s) from ${upload.result.fileName ?? 'the file'} into
        ${upload.result.source}${upload.result.duplicates ? `, ${upload.result.duplicates} of them already known` : ''}.
        <a href=${link('/imports', upload.result.id)}>See the lines of this import</a>
      </p>`;
    case 'refused':
      return refusal(upload.error);
  }
}

function sourceOption(source: Source): TemplateResult {
  const format = source.format ?? 'format detected per file';
  return html`<option value=${source.name}>${source.name} → ${source.account} (${format})</option>`;
}

function uploadForm(sources: Source[], send: (form: FormData) => void, busy: boolean): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    if (!form.get('format')) form.delete('format');
    send(form);
  };
  return html`<form class="upload" @submit=${submit}>
    <label for="source">Source</label>
    <select id="source" name="source" required>${sources.map(sourceOption)}</select>
    <label for="format">Format (empty: the source's, else detected)</label>
    <input id="format" name="format" placeholder="csv:bank, camt053, camt052, camt054, mt940, mt942, bai2" />
    <label for="file">Statement file</label>
    <input id="file" name="file" type="file" required />
    <button type="submit" ?disabled=${busy}>Upload statement</button>
  </form>`;
}

export const importsPage: Page = async (context) => {
  const heading = html`<h1 tabindex="-1">Import a statement</h1>`;
  context.render(html`${heading}${loading('sources')}`);
  let sources: Source[];
  try {
    sources = (await api.get<ListPage<Source>>(apiPath`/v1/sources`)).data;
  } catch (error) {
    context.render(html`${heading}${failure(error, context.reload)}`);
    return;
  }
  let list: TemplateResult = html``;
  let lines: TemplateResult = html``;
  let upload: Upload = { state: 'idle' };
  let newSource: SourceFormState = { state: 'idle' };
  const work = canWork(context.principal);
  const sourceChanged = async (next: SourceFormState) => {
    newSource = next;
    if (next.state === 'created') {
      try {
        sources = (await api.get<ListPage<Source>>(apiPath`/v1/sources`)).data;
      } catch (error) {
        newSource = { state: 'refused', error };
      }
    }
    draw();
  };
  const draw = () => {
    if (!work) {
      context.render(html`${heading}<p class="read-only">Read only: importing needs a finance key.</p>${list}${lines}`);
      return;
    }
    if (sources.length === 0) {
      context.render(
        html`${heading}${empty(
          'No statement sources yet. A finance or admin key creates one with POST /v1/sources ' +
            '(a name, the ledger account its lines belong to, a format), or the form below.',
        )}${sourceForm(newSource, sourceChanged)}`,
      );
      return;
    }
    context.render(html`${heading}
      <p>Upload a bank or gateway statement. A file with any line that cannot be read exactly is refused whole,
        with every bad line listed.</p>
      ${uploadForm(sources, send, upload.state === 'sending')}
      ${uploadState(upload)}
      ${sourceForm(newSource, sourceChanged)}
      ${list}${lines}`);
  };
  const showList = () =>
    importList(context, sources, (section) => {
      list = section;
      draw();
    });
  const send = (form: FormData) => {
    upload = { state: 'sending', fraction: 0 };
    draw();
    api
      .upload<StatementImport>(apiPath`/v1/imports`, form, (fraction) => {
        upload = { state: 'sending', fraction };
        draw();
      })
      .then(
        (result) => {
          upload = { state: 'stored', result };
          return showList();
        },
        (error: unknown) => (upload = { state: 'refused', error }),
      )
      .then(draw);
  };
  draw();
  // With one source chosen, its lines across imports too: by default those no match holds yet.
  const source = context.route.query.get('source');
  await Promise.all([
    showList(),
    source
      ? sourceLines(context, source, (section) => {
          lines = section;
          draw();
        })
      : undefined,
  ]);
};
