import { ApiHeader } from '@nestjs/swagger';
import { DomainError } from '@ledger/errors';

/** `If-Match: 7` or `"7"` (an entity tag), as an OpenAPI header pattern. */
export const IF_MATCH_PATTERN = '^(W/)?"?[1-9][0-9]{0,9}"?$';

/** `If-Match: 7` or `"7"` (an entity tag): the ticket version a change is made to. */
export function ticketVersionOf(ifMatch: string): number {
  const match = /^(?:W\/)?"?([1-9][0-9]{0,9})"?$/.exec(ifMatch.trim());
  const version = match === null ? Number.NaN : Number(match[1]);
  if (!Number.isSafeInteger(version) || version > 2_147_483_647) {
    throw new DomainError('VALIDATION_FAILED', 'If-Match must be a ticket version (a positive integer)', {
      fields: [{ path: 'If-Match', message: 'not a ticket version' }],
    });
  }
  return version;
}

/** The version named by an optional `If-Match` header; none: the change is made to whatever version is there. */
export function expectedVersionOf(ifMatch: string | undefined): number | undefined {
  return ifMatch === undefined ? undefined : ticketVersionOf(ifMatch);
}

/** The optional `If-Match` header of a ticket change, described for /docs. */
export function IfMatchHeader(): MethodDecorator {
  return ApiHeader({
    name: 'If-Match',
    required: false,
    description: "The ticket's `version` as read (a bare integer, or quoted as an entity tag).",
    schema: { type: 'string', pattern: IF_MATCH_PATTERN },
  });
}
