import { createHash } from 'node:crypto';
import { DomainError } from '@ledger/errors';
import type { StatementInput } from '../text-input';

/** Passes a file through while hashing and counting it, refusing it past `bytesMax`. */
export class HashedInput implements AsyncIterable<Buffer | Uint8Array | string> {
  private readonly hash = createHash('sha256');
  private digested: Buffer | undefined;
  bytes = 0n;

  constructor(
    private readonly input: StatementInput,
    private readonly bytesMax: number,
    private readonly onBytes?: (bytes: bigint) => void,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Buffer | Uint8Array | string, void, undefined> {
    for await (const chunk of this.input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      this.bytes += BigInt(bytes.length);
      if (this.bytes > BigInt(this.bytesMax)) {
        throw new DomainError('PAYLOAD_TOO_LARGE', `the file is larger than ${this.bytesMax} bytes`, {
          bytesMax: this.bytesMax,
        });
      }
      this.hash.update(bytes);
      this.onBytes?.(this.bytes);
      yield bytes;
    }
  }

  /** The SHA-256 of everything read; valid once the file was read to its end. */
  digest(): Buffer {
    this.digested ??= this.hash.digest();
    return this.digested;
  }
}
