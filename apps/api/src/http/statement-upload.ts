import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@ledger/auth';
import { DomainError } from '@ledger/errors';
import { IMPORT_FILE_BYTES_MAX } from '@ledger/imports';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import multer from 'multer';
import { JSON_DEPTH_MAX, jsonContentProblem, unstorableContentError } from './json-content';
import { clientAddress } from './client-address';
import { UploadSlots } from './upload-slots';

/** Where uploads are written, one fresh folder per upload (removed whole when its response closes). */
export const UPLOAD_DIRECTORY = Symbol('UPLOAD_DIRECTORY');

/** An uploaded statement, on disk: read as a stream, never held in memory. */
export interface StatementUpload {
  path: string;
  originalName: string;
  bytes: number;
  sha256: string;
}

export type RequestWithUpload = FastifyRequest & { upload?: StatementUpload; principal?: Principal };

const LIMITS = { fileSize: IMPORT_FILE_BYTES_MAX, files: 1, fields: 10, fieldSize: 1024, parts: 12 };

type MultipartRequest = IncomingMessage & { file?: Express.Multer.File; body?: Record<string, unknown> };

/** Streams the multipart body to `directory`: its file, and its text fields (`body`). */
function receive(
  request: MultipartRequest,
  response: ServerResponse,
  directory: string,
): Promise<{ file: Express.Multer.File | undefined; fields: Record<string, unknown> }> {
  const middleware = multer({ storage: multer.diskStorage({ destination: directory }), limits: LIMITS }).single('file');
  return new Promise((resolve, reject) => {
    middleware(request as never, response as never, (error: unknown) => {
      if (error === undefined || error === null) resolve({ file: request.file, fields: { ...request.body } });
      else reject(isMalformedMultipart(error) ? malformedUpload(error) : error);
    });
  });
}

/**
 * The multipart reader's own refusals ("Malformed part header", "Unexpected end of form", ...) are plain
 * errors without a code; the disk's (ENOSPC, EACCES) carry one and stay server errors.
 */
function isMalformedMultipart(error: unknown): error is Error {
  return error instanceof Error && !(error instanceof multer.MulterError) && !('code' in error);
}

function malformedUpload(error: Error): DomainError {
  return new DomainError('VALIDATION_FAILED', `bad upload: ${error.message}`, {
    fields: [{ path: 'body', message: error.message }],
  });
}

function isMultipart(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'multipart/form-data';
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function uploadError(error: unknown, response: ServerResponse): unknown {
  if (error instanceof multer.MulterError) {
    if (error.code === 'LIMIT_FILE_SIZE')
      return new DomainError('PAYLOAD_TOO_LARGE', `the file is larger than ${IMPORT_FILE_BYTES_MAX} bytes`, {
        field: error.field ?? null,
      });
    return new DomainError('VALIDATION_FAILED', `bad upload: ${error.message}`, {
      fields: [{ path: error.field ?? 'body', message: error.message }],
    });
  }
  if (response.closed) return new DomainError('VALIDATION_FAILED', 'the upload stopped before its end');
  return error;
}

/**
 * Receives a statement upload (`multipart/form-data`) to disk. A route guard, so that it runs after
 * AuthGuard (the key and its role are checked before a byte of the body is read) and before the
 * interceptors (the idempotency fingerprint includes the file's hash). Each upload holds a slot of its
 * key and of its address (429 beyond them) and writes into a folder of its own, removed with whatever
 * it holds when the response closes: answered, failed, or aborted by the client.
 */
@Injectable()
export class StatementUploadReception implements CanActivate {
  constructor(
    private readonly slots: UploadSlots,
    @Inject(UPLOAD_DIRECTORY) private readonly directory: string,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<RequestWithUpload>();
    const response = context.switchToHttp().getResponse<FastifyReply>().raw;
    // Not multipart: no file, which the handler refuses by name.
    if (!isMultipart(request.headers['content-type'])) return true;
    const release = this.slots.acquire(request.principal!.keyId, clientAddress(request));
    let folder: string | undefined;
    // Closed: answered, or the client went away (perhaps already while the key was being checked).
    let closed = response.closed;
    const cleanUp = () => {
      release();
      if (folder !== undefined) void rm(folder, { recursive: true, force: true });
    };
    response.once('close', () => {
      closed = true;
      cleanUp();
    });
    folder = await mkdtemp(join(this.directory, 'statement-'));
    try {
      if (closed) throw new DomainError('VALIDATION_FAILED', 'the upload stopped before its end');
      const { file, fields } = await receive(request.raw, response, folder);
      // The file's name is stored with the import: it is text like the fields.
      const problem = jsonContentProblem({ ...fields, file: file?.originalname }, JSON_DEPTH_MAX);
      if (problem !== null) throw unstorableContentError(problem);
      request.body = fields;
      if (file !== undefined)
        request.upload = {
          path: file.path,
          originalName: file.originalname,
          bytes: file.size,
          sha256: await sha256Of(file.path),
        };
      return true;
    } catch (error) {
      throw uploadError(error, response);
    } finally {
      // The response may have closed while the file was still being written into the folder.
      if (closed) cleanUp();
    }
  }
}
