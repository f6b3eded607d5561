import { DomainError } from '@ledger/errors';
import { DETECTABLE_FORMATS, detectInputFormat } from '../format-detection';
import type { StatementInput } from '../text-input';

/**
 * The format of a file whose import and source name none, from its first bytes (a bounded prefix, see
 * format-detection.ts); the input handed back yields the whole file. Every format detected has its parser;
 * a file recognised as none of them is refused.
 */
export async function detectedImportFormat(input: StatementInput): Promise<{ format: string; input: StatementInput }> {
  const detection = await detectInputFormat(input);
  if (detection.format === null) {
    await detection.close();
    throw new DomainError(
      'FORMAT_NOT_RECOGNISED',
      `the file is none of the formats tried (${DETECTABLE_FORMATS.join(', ')}): name its format; nothing was stored`,
      { tried: [...DETECTABLE_FORMATS] },
    );
  }
  return { format: detection.format, input: detection.input };
}
