/** A provider answer larger than this is not one of its payments or errors; reading stops there. */
export const RESPONSE_BYTES_MAX = 64 * 1024;
/** What of an answer's body is kept on the order as evidence. */
export const EVIDENCE_BODY_CHARS_MAX = 2048;

export interface ResponseText {
  text: string;
  /** The body was longer than RESPONSE_BYTES_MAX: `text` is its beginning only. */
  truncated: boolean;
}

/** Reads at most `bytesMax` of a response body, then cancels the rest, so a runaway answer cannot fill memory. */
export async function readBoundedText(response: Response, bytesMax = RESPONSE_BYTES_MAX): Promise<ResponseText> {
  if (response.body === null) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = bytesMax - bytes;
    chunks.push(value.length > room ? value.subarray(0, room) : value);
    bytes += Math.min(value.length, room);
    if (value.length > room) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated };
}

export function evidenceBody(text: string): string {
  return text.length > EVIDENCE_BODY_CHARS_MAX ? `${text.slice(0, EVIDENCE_BODY_CHARS_MAX)}...` : text;
}

/** JSON.parse that answers undefined for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
