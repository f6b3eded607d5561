import { type CallHandler, Get, Injectable, type NestInterceptor, Post, UseInterceptors } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { describe, expect, it } from 'vitest';
import { Idempotency, IdempotencyInterceptor, assertPostsStateIdempotency } from './idempotency.interceptor';

@Injectable()
class RecordingInterceptor implements NestInterceptor {
  intercept(_context: unknown, next: CallHandler) {
    return next.handle();
  }
}

class Routes {
  @Post('above')
  @Idempotency({ required: true })
  @UseInterceptors(RecordingInterceptor)
  keyedAboveAnother() {}

  @Post('below')
  @UseInterceptors(RecordingInterceptor)
  @Idempotency({ required: true })
  keyedBelowAnother() {}

  @Post('unkeyed')
  @Idempotency({ required: false })
  unkeyed() {}

  @Get('read')
  read() {}
}

class SilentPost {
  @Post()
  create() {}
}

function interceptorsOf(handler: object): unknown[] {
  return Reflect.getMetadata(INTERCEPTORS_METADATA, handler) ?? [];
}

describe('Idempotency', () => {
  it('runs the interceptor first on a route that requires a key, whatever the order of the decorators', () => {
    expect(interceptorsOf(Routes.prototype.keyedAboveAnother)).toEqual([IdempotencyInterceptor, RecordingInterceptor]);
    expect(interceptorsOf(Routes.prototype.keyedBelowAnother)).toEqual([IdempotencyInterceptor, RecordingInterceptor]);
  });

  it('runs no interceptor on a route that takes no key, nor on a route that states nothing', () => {
    expect(interceptorsOf(Routes.prototype.unkeyed)).toEqual([]);
    expect(interceptorsOf(Routes.prototype.read)).toEqual([]);
  });
});

describe('assertPostsStateIdempotency', () => {
  it('accepts controllers whose every POST states its idempotency', () => {
    expect(() => assertPostsStateIdempotency([Routes])).not.toThrow();
  });

  it('names the POST handlers that state none', () => {
    expect(() => assertPostsStateIdempotency([Routes, SilentPost])).toThrow(/SilentPost\.create/);
  });
});
