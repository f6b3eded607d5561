import type {
  GetStatementLineUseCase,
  ImportView,
  ListImportLinesUseCase,
  ListImportsUseCase,
  ListSourcesUseCase,
  SaveCsvProfileUseCase,
  SourceView,
  StoredLineView,
} from '@ledger/imports';
import { csvProfileSchema, STATEMENT_CHARSETS } from '@ledger/imports';
import type { ListStatementLinesUseCase } from '@ledger/reconciliation';
import { z } from 'zod';
import { type Assert, type Same, component, pageOf } from '../components';
import { actor, amount, counter, currency, day, id, instant, sha256Hex, signedAmount } from './fields';

export const sourceView = component(
  'Source',
  z
    .strictObject({
      id,
      name: z.string().meta({ examples: ['bank-eur'] }),
      format: z
        .string()
        .nullable()
        .meta({
          description: "The default format of its files; null: each file's, named or recognised.",
          examples: ['camt053'],
        }),
      charset: z
        .enum(STATEMENT_CHARSETS)
        .nullable()
        .meta({
          description: "What its files are written in when they are not UTF-8; null: the format's default.",
          examples: ['windows-1250'],
        }),
      account: z.string().meta({ description: 'The ledger account its lines belong to.' }),
      accountId: id,
      currency,
      createdAt: instant,
    })
    .meta({ description: 'A bank account or gateway whose statements are imported.' }),
);

export const sourceList = component(
  'SourceList',
  z.strictObject({ data: z.array(sourceView), nextCursor: z.null() }).meta({ description: 'Every source, one page.' }),
);

export const csvProfileView = component(
  'CsvProfile',
  z.strictObject({
    name: z.string(),
    format: z.string().meta({ description: 'The format to import with: `csv:<name>`.', examples: ['csv:mybank'] }),
    definition: csvProfileSchema,
  }),
);

const balanceOnDay = z.strictObject({ amount: signedAmount, currency, date: day }).nullable();

export const importView = component(
  'Import',
  z
    .strictObject({
      id,
      source: z.string(),
      format: z.string().meta({
        description: 'The format the file was read in: the one named, else the one recognised from its first bytes.',
        examples: ['camt053', 'camt052', 'camt054', 'mt940', 'mt942', 'bai2', 'csv:bank'],
      }),
      charset: z.enum(STATEMENT_CHARSETS).meta({
        description: 'The charset the file was read in (`utf-8` when it is UTF-8 or ASCII).',
        examples: ['utf-8', 'windows-1252'],
      }),
      fileName: z.string().nullable(),
      fileSha256: sha256Hex.meta({ description: 'SHA-256 of the file as received (its bytes, not its text).' }),
      fileBytes: counter,
      lines: z.number().int().min(0).meta({ description: 'Lines the file holds.' }),
      duplicates: z.number().int().min(0).meta({ description: 'Of those, lines the source already had.' }),
      interim: z.boolean().meta({
        description:
          'An interim report or notification (mt942, camt052, camt054): its new lines are stored interim, ' +
          'matched like any other, until a final statement of the source brings them.',
      }),
      finalized: z
        .number()
        .int()
        .min(0)
        .meta({
          description:
            'Of the duplicates, lines stored interim that this final import brought again and made final ' +
            '(the same line, with its matches).',
        }),
      statements: z.array(
        z.strictObject({
          statementIndex: z.number().int().min(0),
          accountId: z.string().nullable().meta({ description: "The statement's own account identifier (IBAN...)." }),
          statementId: z.string().nullable(),
          currency: currency.nullable(),
          opening: balanceOnDay,
          closing: balanceOnDay,
          lines: z.number().int().min(0),
          balanced: z.boolean().nullable().meta({ description: 'opening + lines = closing; null: no balances.' }),
          balanceProblem: z.string().optional(),
        }),
      ),
      warnings: z.array(z.string()),
      actor,
      createdAt: instant,
    })
    .meta({ description: 'A statement file as imported (a file seen before answers its first import).' }),
);

export const importPage = pageOf('ImportPage', importView, 'Imports, newest first.');

const storedLineFields = {
  id,
  externalId: z.string().meta({ description: "The bank's reference of the line, else a hash of its content." }),
  lineNumber: z.number().int().min(1),
  statementIndex: z.number().int().min(0),
  bookedOn: day,
  valueOn: day.nullable(),
  amount: signedAmount.meta({ description: 'Minor units, negative for money out of the account.' }),
  currency,
  reversal: z.boolean(),
  typeCode: z.string().nullable(),
  references: z.record(z.string(), z.string()),
  counterparty: z
    .record(z.string(), z.string())
    .nullable()
    .meta({
      description:
        'The other party as the statement names it: `name`, `account`, `bankCode` (BIC or national code), ' +
        '`ultimateDebtor`, `ultimateCreditor`, each where given.',
    }),
  description: z.string(),
  gross: amount.optional(),
  fee: amount.optional(),
  interim: z.boolean().meta({
    description: 'From an interim report (mt942, camt052, camt054), not yet brought by a final statement.',
  }),
};

export const statementLineView = component('StatementLine', z.strictObject(storedLineFields));

export const statementLineWithImportView = component(
  'StatementLineWithImport',
  z.strictObject({ ...storedLineFields, importId: id }).meta({ description: 'A line and the import it came from.' }),
);

export const statementLinePage = pageOf('StatementLinePage', statementLineView, 'Lines in file order.');

export const listedStatementLineView = component(
  'ListedStatementLine',
  z
    .strictObject({
      ...storedLineFields,
      importId: id,
      source: z.string().meta({ description: "The source's name.", examples: ['bank-eur'] }),
      matched: z.boolean().meta({ description: "A match holds the line (the reconciler's or a person's)." }),
    })
    .meta({ description: 'A line, where it came from, and whether a match holds it.' }),
);

export const listedStatementLinePage = pageOf(
  'ListedStatementLinePage',
  listedStatementLineView,
  "A source's lines, the latest booking day first.",
);

type Output<Schema extends z.ZodType> = z.output<Schema>;
type Answer<Method extends (...args: never[]) => unknown> = Awaited<ReturnType<Method>>;
export type ImportViewsMatch = [
  Assert<Same<SourceView & { id: string }, Output<typeof sourceView>>>,
  Assert<Same<Answer<ListSourcesUseCase['execute']>, Output<typeof sourceList>>>,
  Assert<Same<Answer<SaveCsvProfileUseCase['execute']>, Output<typeof csvProfileView>>>,
  Assert<Same<ImportView, Output<typeof importView>>>,
  Assert<Same<StoredLineView, Output<typeof statementLineView>>>,
  Assert<Same<Answer<GetStatementLineUseCase['execute']>, Output<typeof statementLineWithImportView>>>,
  Assert<Same<Answer<ListImportLinesUseCase['execute']>, Output<typeof statementLinePage>>>,
  Assert<Same<Answer<ListImportsUseCase['execute']>, Output<typeof importPage>>>,
  Assert<Same<Answer<ListStatementLinesUseCase['execute']>, Output<typeof listedStatementLinePage>>>,
];
