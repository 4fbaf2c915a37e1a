import { Injectable } from '@nestjs/common';

/**
 * Whether the process is draining before it stops: from SIGTERM on, readiness answers 503 so that
 * balancers send new requests elsewhere, while the requests that still arrive are served.
 */
@Injectable()
export class Drain {
  private began = false;

  get draining(): boolean {
    return this.began;
  }

  begin(): void {
    this.began = true;
  }
}
