import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Audited, CurrentPrincipal, type Principal } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import {
  type BalanceProofDocument,
  type CheckpointHeaderDocument,
  GetBalanceProofUseCase,
  GetInclusionProofUseCase,
  GetProofKeyUseCase,
  IssueBalanceProofUseCase,
} from '@ledger/proofs';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';
import { Endpoint } from '../openapi/endpoint';
import { balanceProofView, inclusionProofView, proofCheckpointView, proofKeyView } from '../openapi/views/proofs.views';

const proofIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a proof id: 64 lower-case hex digits');
const issueProofSchema = z.strictObject({ asOf: instantSchema.optional() }).default({});
const balanceProofQuerySchema = z.strictObject({ proofId: proofIdSchema.optional(), since: proofIdSchema.optional() });
const inclusionQuerySchema = z.strictObject({ proofId: proofIdSchema.optional() });

const AUDITORS = ['auditor', 'admin'] as const;

@ApiTags('proofs')
@Controller('v1/proofs')
export class ProofsController {
  constructor(
    private readonly issueProof: IssueBalanceProofUseCase,
    private readonly balanceProof: GetBalanceProofUseCase,
    private readonly inclusionProof: GetInclusionProofUseCase,
    private readonly proofKey: GetProofKeyUseCase,
  ) {}

  /** Signs the books at the current journal position, or answers the stored proof of that position. */
  @Post('balances')
  @Audited('proof.issue')
  @Endpoint({
    operationId: 'issueBalanceProof',
    summary: 'Issue a signed balance proof',
    description:
      "Signs the tenant's books (balances as of `asOf`, default now; Merkle sum roots; journal heads) and keeps " +
      'the proof. While the journal heads are those of the latest proof for the same `asOf` (or of the latest ' +
      'issued without one), that proof is the answer (`Ledger-Existing: true`) and nothing new is stored. ' +
      'At most `LEDGER_PROOFS_PER_MINUTE_MAX` new proofs per tenant per minute.',
    access: AUDITORS,
    idempotency: 'required',
    body: issueProofSchema,
    bodyOptional: true,
    answer: {
      status: 201,
      description: 'The signed part of the proof; its id reads the whole document.',
      schema: proofCheckpointView,
      existing: true,
    },
    errors: ['PAYLOAD_TOO_LARGE', 'UNAVAILABLE'],
  })
  async issue(
    @CurrentPrincipal() principal: Principal,
    @Body(new ZodValidationPipe(issueProofSchema)) body: z.output<typeof issueProofSchema>,
    @Res({ passthrough: true }) response: FastifyReply,
  ): Promise<CheckpointHeaderDocument> {
    const issued = await this.issueProof.execute({ tenantId: principal.tenantId, asOf: body.asOf });
    if (issued.reused) response.header('Ledger-Existing', 'true');
    return issued.checkpoint;
  }

  /** A stored proof (default: the latest); `since` adds the journal links from an earlier proof. */
  @Get('balances')
  @Endpoint({
    operationId: 'getBalanceProof',
    summary: 'Read a stored balance proof',
    description:
      'The proof `proofId` (default: the latest issued), as `ledger proof verify` reads it; never issues one. ' +
      '`since` (an earlier proof id) adds the journal links between the two.',
    access: AUDITORS,
    query: balanceProofQuerySchema,
    answer: { status: 200, description: 'The proof, as the verifier reads it.', schema: balanceProofView },
    errors: ['PROOF_NOT_FOUND', 'PAYLOAD_TOO_LARGE'],
  })
  balances(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(balanceProofQuerySchema, 'query')) query: z.output<typeof balanceProofQuerySchema>,
  ): Promise<BalanceProofDocument> {
    return this.balanceProof.execute({ tenantId: principal.tenantId, ...query });
  }

  /** The path showing one account is counted in an issued proof (default: the latest). */
  @Get('balances/:account')
  @Endpoint({
    operationId: 'getInclusionProof',
    summary: "Prove one account's balance is in a proof",
    description: "The account's leaf and its path to the signed root, in `proofId` (default: the latest proof).",
    access: AUDITORS,
    query: inclusionQuerySchema,
    answer: { status: 200, description: 'The inclusion proof.', schema: inclusionProofView },
    errors: ['NOT_FOUND', 'PROOF_NOT_FOUND'],
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
