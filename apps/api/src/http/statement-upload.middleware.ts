import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import type { NextFunction, Request, Response } from 'express';
import { errorBody } from '@ledger/errors';
import { IMPORT_FILE_BYTES_MAX } from '@ledger/imports';
import multer from 'multer';

/** An uploaded statement, on disk: read as a stream, never held in memory. */
export interface StatementUpload {
  path: string;
  originalName: string;
  bytes: number;
  sha256: string;
}

export type RequestWithUpload = Request & { upload?: StatementUpload };

const receive = multer({
  storage: multer.diskStorage({ destination: tmpdir() }),
  limits: { fileSize: IMPORT_FILE_BYTES_MAX, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
}).single('file');

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Receives `multipart/form-data` uploads to disk before the route runs, so that the idempotency
 * fingerprint can include the file's hash, and deletes the file when the response is done. The API
 * key is verified by the guard afterwards; a request without one is refused before anything is read.
 */
export function statementUpload(request: Request, response: Response, next: NextFunction): void {
  if (request.method !== 'POST' || !request.is('multipart/form-data')) return next();
  if (request.headers.authorization === undefined) {
    response.status(401).json(errorBody('UNAUTHENTICATED', 'send an API key as "Authorization: Bearer <key>"'));
    return;
  }
  receive(request, response, (error: unknown) => {
    const file = (request as Request & { file?: Express.Multer.File }).file;
    if (file) response.on('close', () => void unlink(file.path).catch(() => undefined));
    if (error instanceof multer.MulterError) {
      const tooLarge = error.code === 'LIMIT_FILE_SIZE';
      response
        .status(tooLarge ? 413 : 400)
        .json(
          errorBody(
            tooLarge ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED',
            tooLarge ? `the file is larger than ${IMPORT_FILE_BYTES_MAX} bytes` : `bad upload: ${error.message}`,
            { field: error.field ?? null },
          ),
        );
      return;
    }
    if (error) return next(error);
    if (!file) return next();
    sha256Of(file.path).then(
      (sha256) => {
        (request as RequestWithUpload).upload = {
          path: file.path,
          originalName: file.originalname,
          bytes: file.size,
          sha256,
        };
        next();
      },
      (hashError: unknown) => next(hashError),
    );
  });
}
