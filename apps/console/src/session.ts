// The API key lives in session storage: it goes when the tab closes, and no other site can read it.
const STORAGE_KEY = 'ledger-console.api-key';

export function readApiKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function keepApiKey(apiKey: string): void {
  sessionStorage.setItem(STORAGE_KEY, apiKey);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
