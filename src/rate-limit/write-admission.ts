import { CallHandler, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { finalize, Observable } from 'rxjs';
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
 * a caller without a valid key still gets 401, and before validation, so a refused write costs
 * almost nothing.
 */
export const LimitWritesInFlight = (): MethodDecorator & ClassDecorator =>
  UseInterceptors(WriteAdmissionInterceptor);
