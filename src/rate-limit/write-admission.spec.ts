import { Body, Param, Post } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, PROPERTY_DEPS_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common/enums/request-method.enum';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { ApiOperation } from '@nestjs/swagger';
import { ACCESS_METADATA, CurrentPrincipal, RequireRole } from '../auth/auth.decorators';
import type { TenantPrincipal } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { LimitWritesInFlight, WriteAdmission, WriteSlots } from './write-admission';

/** Takes `count` slots for `tenant`; answers the release functions, failing if one is refused. */
function take(slots: WriteSlots, tenant: string, count: number): (() => void)[] {
  return Array.from({ length: count }, () => {
    const taken = slots.take(tenant);
    if (typeof taken !== 'function') throw new Error(`${tenant} was refused: ${taken}`);
    return taken;
  });
}

describe('WriteSlots', () => {
  it('lets one tenant alone use all but one share of the slots', () => {
    const slots = new WriteSlots(64, 8);
    take(slots, 'a', 56);
    expect(slots.take('a')).toBe('over-share');
    // Another tenant still gets its whole share, and then the process is full.
    take(slots, 'b', 8);
    expect(slots.take('c')).toBe('full');
  });

  it('keeps the unused share of every tenant with writes in flight free for it', () => {
    const slots = new WriteSlots(10, 3);
    take(slots, 'b', 1);
    // Free: 9; kept for b (2 more) and for one newcomer (3): a may go to 4.
    take(slots, 'a', 4);
    expect(slots.take('a')).toBe('over-share');
    take(slots, 'b', 2);
    take(slots, 'c', 3);
    expect(slots.take('d')).toBe('full');
  });

  it('admits below the share whenever a slot is free', () => {
    const slots = new WriteSlots(4, 2);
    take(slots, 'a', 2);
    take(slots, 'b', 2);
    expect(slots.take('a')).toBe('full');
    expect(slots.take('c')).toBe('full');
  });

  it('gives slots back once, and forgets a tenant with none in flight', () => {
    const slots = new WriteSlots(4, 1);
    const [first, ...rest] = take(slots, 'a', 3);
    expect(slots.take('a')).toBe('over-share');
    first();
    first();
    const again = take(slots, 'a', 1);
    expect(slots.take('a')).toBe('over-share');
    for (const release of [...rest, ...again]) release();
    // Nothing in flight: the whole limit but one share is a's again.
    take(slots, 'a', 3);
  });

  it('guarantees the share of a tenant that arrives while another fills its part', () => {
    const slots = new WriteSlots(8, 2);
    const hog = take(slots, 'hog', 6);
    expect(slots.take('hog')).toBe('over-share');
    take(slots, 'late', 2);
    expect(slots.take('other')).toBe('full');
    for (const release of hog) release();
    take(slots, 'other', 2);
  });
});

describe('LimitWritesInFlight', () => {
  class Writes {
    constructor(readonly writeAdmission: WriteAdmission) {}

    @Post('writes')
    @RequireRole('operator')
    @LimitWritesInFlight()
    @ApiOperation({ summary: 'a write' })
    async write(@CurrentPrincipal() _principal: TenantPrincipal, @Body() work: () => Promise<string>) {
      return work();
    }

    @Post('others')
    @LimitWritesInFlight()
    async other(@Body() work: () => Promise<string>, @CurrentPrincipal() _principal: TenantPrincipal) {
      return work();
    }
  }

  const slots = (limit: number, share: number) =>
    new WriteAdmission({
      get: (key: string) => ({ maxWritesInFlight: limit, tenantWriteShare: share })[key],
    } as unknown as ConfigService<AppConfig, true>);
  const tenant = (tenantId: string) => ({ tenantId }) as TenantPrincipal;

  it('keeps the route: its name and the metadata of the decorators on either side', () => {
    const handler = Writes.prototype.write;
    expect(handler.name).toBe('write');
    expect(Reflect.getMetadata(PATH_METADATA, handler)).toBe('writes');
    expect(Reflect.getMetadata(METHOD_METADATA, handler)).toBe(RequestMethod.POST);
    expect(Reflect.getMetadata(ACCESS_METADATA, handler)).toEqual({ kind: 'role', roles: ['operator'] });
    expect(Reflect.getMetadata('swagger/apiOperation', handler)).toMatchObject({ summary: 'a write' });
    expect(Reflect.getMetadata('swagger/apiResponse', handler)).toHaveProperty('503');
  });

  it('asks Nest once for the write slots, however many routes use them', () => {
    expect(Reflect.getMetadata(PROPERTY_DEPS_METADATA, Writes)).toEqual([
      { key: 'writeAdmission', type: WriteAdmission },
    ]);
  });

  it("takes a slot of the principal's tenant for as long as the handler runs, failed or not", async () => {
    const writes = new Writes(slots(1, 1));
    let finish!: () => void;
    const running = writes.write(
      tenant('a'),
      () => new Promise<string>((resolve) => (finish = () => resolve('done'))),
    );
    const refused = await writes
      .other(() => Promise.resolve('never'), tenant('b'))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemException);
    expect((refused as ProblemException).problem).toMatchObject({ status: 503, type: 'overloaded' });
    finish();
    await expect(running).resolves.toBe('done');

    await expect(writes.write(tenant('a'), () => Promise.reject(new Error('upstream down')))).rejects.toThrow(
      'upstream down',
    );
    await expect(writes.other(() => Promise.resolve('next'), tenant('b'))).resolves.toBe('next');
  });

  it("takes a slot of the tenant a platform route's path names, or of the platform itself", async () => {
    class PlatformWrites {
      constructor(readonly writeAdmission: WriteAdmission) {}

      @Post(':tenantId/writes')
      @LimitWritesInFlight('path')
      write(@Param('tenantId') _tenantId: string, @Body() work: () => Promise<string>) {
        return work();
      }

      @Post()
      @LimitWritesInFlight('platform')
      create(@Body() work: () => Promise<string>) {
        return work();
      }
    }
    const writes = new PlatformWrites(slots(2, 1));
    let finish!: () => void;
    const running = writes.write(
      'a',
      () => new Promise<string>((resolve) => (finish = () => resolve('done'))),
    );
    // Tenant a holds its share; the one slot left is kept for another, and the platform takes it.
    const refused = await writes.write('a', () => Promise.resolve('never')).catch((error: unknown) => error);
    expect((refused as ProblemException).problem).toMatchObject({ status: 503, type: 'overloaded' });
    await expect(writes.create(() => Promise.resolve('tenant'))).resolves.toBe('tenant');
    finish();
    await expect(running).resolves.toBe('done');
    expect(() => {
      class Unbound {
        @Post(':id/writes')
        @LimitWritesInFlight('path')
        write(@Param('id') id: string) {
          return Promise.resolve(id);
        }
      }
      return Unbound;
    }).toThrow("Unbound.write limits writes in flight but takes no @Param('tenantId')");
  });

  it('refuses, as the class is defined, a route that takes no principal', () => {
    expect(() => {
      class Unbound {
        @Post('writes')
        @LimitWritesInFlight()
        write(@Body() body: unknown) {
          return Promise.resolve(body);
        }
      }
      return Unbound;
    }).toThrow('Unbound.write limits writes in flight but takes no @CurrentPrincipal()');
  });
});
