import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal, Public, Roles } from '@ledger/auth';
import { instantSchema } from '@ledger/ledger';
import { GetInclusionProofUseCase, GetProofKeyUseCase, IssueBalanceProofUseCase } from '@ledger/proofs';
import { z } from 'zod';
import { ZodValidationPipe } from '../http/zod-validation.pipe';

const proofIdSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a proof id: 64 lower-case hex digits');
const balanceProofQuerySchema = z.strictObject({ asOf: instantSchema.optional(), since: proofIdSchema.optional() });
const inclusionQuerySchema = z.strictObject({ proofId: proofIdSchema.optional() });

@ApiTags('proofs')
@ApiBearerAuth()
@Controller('v1/proofs')
export class ProofsController {
  constructor(
    private readonly issueProof: IssueBalanceProofUseCase,
    private readonly inclusionProof: GetInclusionProofUseCase,
    private readonly proofKey: GetProofKeyUseCase,
  ) {}

  /** A signed balance proof of the tenant's books now; `since` adds the journal links from an earlier proof. */
  @Get('balances')
  @Roles('auditor', 'admin')
  balances(
    @CurrentPrincipal() principal: Principal,
    @Query(new ZodValidationPipe(balanceProofQuerySchema, 'query')) query: z.output<typeof balanceProofQuerySchema>,
  ) {
    return this.issueProof.execute({ tenantId: principal.tenantId, ...query });
  }

  /** The path showing one account is counted in an issued proof (default: the latest). */
  @Get('balances/:account')
  @Roles('auditor', 'admin')
  inclusion(
    @CurrentPrincipal() principal: Principal,
    @Param('account') account: string,
    @Query(new ZodValidationPipe(inclusionQuerySchema, 'query')) query: z.output<typeof inclusionQuerySchema>,
  ) {
    return this.inclusionProof.execute({ tenantId: principal.tenantId, account, ...query });
  }

  /** The public key that signs proofs (Ed25519); its id is the SHA-256 of the SPKI DER bytes. */
  @Get('key')
  @Public()
  key() {
    return this.proofKey.execute();
  }
}
