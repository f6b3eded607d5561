import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { GetInclusionProofUseCase, GetProofKeyUseCase, IssueBalanceProofUseCase } from '@ledger/proofs';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { balanceProofView, inclusionProofView, proofKeyView } from '../openapi/views/proofs.views';

const proofIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a proof id: 64 lower-case hex digits');
const balanceProofQuerySchema = z.strictObject({ asOf: instantSchema.optional(), since: proofIdSchema.optional() });
const inclusionQuerySchema = z.strictObject({ proofId: proofIdSchema.optional() });

@ApiTags('proofs')
@Controller('v1/proofs')
export class ProofsController {
  constructor(
    private readonly issueProof: IssueBalanceProofUseCase,
    private readonly inclusionProof: GetInclusionProofUseCase,
    private readonly proofKey: GetProofKeyUseCase,
  ) {}

  /** A signed balance proof of the tenant's books now; `since` adds the journal links from an earlier proof. */
  @Get('balances')
  @Endpoint({
    operationId: 'issueBalanceProof',
    summary: 'Issue a signed balance proof',
    description:
      "A signed checkpoint of the tenant's books (balances as of `asOf`, Merkle sum roots, journal heads); " +
      '`since` (an earlier proof id) adds the journal links between the two. `ledger proof verify` checks it offline.',
    access: ['auditor', 'admin'],
    query: balanceProofQuerySchema,
    answer: { status: 200, description: 'The proof, as the verifier reads it.', schema: balanceProofView },
    errors: ['NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'UNAVAILABLE'],
  })
  balances(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(balanceProofQuerySchema, 'query')) query: z.output<typeof balanceProofQuerySchema>,
  ) {
    return this.issueProof.execute({ tenantId: principal.tenantId, ...query });
  }

  /** The path showing one account is counted in an issued proof (default: the latest). */
  @Get('balances/:account')
  @Endpoint({
    operationId: 'getInclusionProof',
    summary: "Prove one account's balance is in a proof",
    description: "The account's leaf and its path to the signed root, in `proofId` (default: the latest proof).",
    access: ['auditor', 'admin'],
    query: inclusionQuerySchema,
    answer: { status: 200, description: 'The inclusion proof.', schema: inclusionProofView },
    errors: ['NOT_FOUND', 'UNAVAILABLE'],
  })
  inclusion(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(inclusionQuerySchema, 'query')) query: z.output<typeof inclusionQuerySchema>,
  ) {
    return this.inclusionProof.execute({ tenantId: principal.tenantId, account, ...query });
  }

  /** The public key that signs proofs (Ed25519); its id is the SHA-256 of the SPKI DER bytes. */
  @Get('key')
  @Endpoint({
    operationId: 'getProofKey',
    summary: 'The public key that signs proofs',
    description: 'Ed25519; its id is the SHA-256 of the SPKI DER bytes. Public: verifiers pin it.',
    access: 'public',
    answer: { status: 200, description: 'The public key.', schema: proofKeyView },
    errors: ['UNAVAILABLE'],
  })
  key() {
    return this.proofKey.execute();
  }
}
