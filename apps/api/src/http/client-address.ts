import type { FastifyRequest } from 'fastify';

/** The client's address: the connection's peer, or X-Forwarded-For's when the trusted proxy setting says so. */
export function clientAddress(request: FastifyRequest): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
