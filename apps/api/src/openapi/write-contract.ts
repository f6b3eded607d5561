import 'reflect-metadata';
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  OPENAPI_DOCUMENT_FILE,
  OPENAPI_TYPES_FILE,
  documentText,
  offlineApiDocument,
  typesText,
} from './contract-files';

// `npm run openapi`: writes openapi.json and the generated types from the code.
// `npm run openapi:check`: exits 1 when the committed files differ from what the code gives.

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const document = await offlineApiDocument();
  const files = [
    [OPENAPI_DOCUMENT_FILE, documentText(document)],
    [OPENAPI_TYPES_FILE, await typesText(document)],
  ] as const;
  let drifted = 0;
  for (const [file, text] of files) {
    const path = resolve(process.cwd(), file);
    if ((await readOrEmpty(path)) === text) {
      console.log(`${file}: up to date`);
    } else if (check) {
      console.error(`${file}: differs from the code; run npm run openapi and commit it`);
      drifted++;
    } else {
      await writeFile(path, text);
      console.log(`${file}: written`);
    }
  }
  process.exitCode = drifted > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
