import type { Request } from 'express';

/** The client's address: the connection's peer, or X-Forwarded-For's when `trust proxy` says so. */
export function clientAddress(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
