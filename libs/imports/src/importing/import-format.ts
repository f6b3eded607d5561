import { DomainError } from '@ledger/errors';
import { DETECTABLE_FORMATS, detectInputFormat, RECOGNISED_NOT_PARSED } from '../format-detection';
import type { StatementInput } from '../text-input';

/**
 * The format of a file whose import and source name none, from its first bytes (a bounded prefix, see
 * format-detection.ts); the input handed back yields the whole file. Refused: a file recognised as none of
 * the formats, and one in a format recognised but not read by this build.
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
  if (RECOGNISED_NOT_PARSED.has(detection.format)) {
    await detection.close();
    throw new DomainError(
      'FORMAT_NOT_SUPPORTED',
      `the file is ${detection.format}, a format recognised but not supported yet; nothing was stored`,
      { format: detection.format },
    );
  }
  return { format: detection.format, input: detection.input };
}
