import { applyDecorators, CallHandler, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { finalize, Observable } from 'rxjs';
import { ApiProblem, RETRY_AFTER } from '../openapi/api-problems';
import { RateLimitService } from './rate-limit.service';

/** Refuses the request with 503 when the process already runs MAX_WRITES_IN_FLIGHT writes. */
@Injectable()
export class WriteAdmissionInterceptor implements NestInterceptor {
  constructor(private readonly rateLimits: RateLimitService) {}

  intercept(_context: unknown, next: CallHandler): Observable<unknown> {
    const release = this.rateLimits.admitWrite();
    return next.handle().pipe(finalize(release));
  }
}

/**
 * For routes whose write waits on the audit chain and an upstream. Runs after authentication, so
 * a caller without a valid key still gets 401, and before validation: a refused write costs its
 * body's parse and no database or upstream work.
 */
export const LimitWritesInFlight = (): MethodDecorator & ClassDecorator =>
  applyDecorators(
    UseInterceptors(WriteAdmissionInterceptor),
    ApiProblem(
      503,
      '`overloaded`: this process already runs MAX_WRITES_IN_FLIGHT writes; nothing was done. Retry after `Retry-After`.',
      { 'Retry-After': RETRY_AFTER },
    ),
  );
