import { html, type TemplateResult } from 'lit-html';

/** The sign-in form; `onSubmit` gets the key as typed. */
export function signIn(onSubmit: (apiKey: string) => void, problem?: string): TemplateResult {
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    const field = (event.currentTarget as HTMLFormElement).elements.namedItem('api-key') as HTMLInputElement;
    onSubmit(field.value.trim());
  };
  return html`<main id="main" class="sign-in">
    <h1 tabindex="-1">Ledger console</h1>
    <p>Sign in with an API key. It is kept in this tab's session storage only, and forgotten when you sign out or
      close the tab.</p>
    <form @submit=${submit}>
      <label for="api-key">API key</label>
      <input id="api-key" name="api-key" type="password" autocomplete="off" required minlength="8" />
      <button type="submit">Sign in</button>
    </form>
    ${problem ? html`<p class="notice error" role="alert">${problem}</p>` : ''}
  </main>`;
}
