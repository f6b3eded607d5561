import { html, type TemplateResult } from 'lit-html';

/** An option of a filter's select, chosen when it is the filter's value (`''` is "Any"). */
export function option(value: string, label: string, selected: string | undefined): TemplateResult {
  return html`<option value=${value} ?selected=${value === (selected ?? '')}>${label}</option>`;
}
