import { Controller, Get, Headers, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AnyCaller, CurrentPrincipal } from '../auth/auth.decorators';
import type { Principal } from '../auth/principal';
import { canonicalJson, sha256Hex } from '../common/canonical-json';
import { MeView } from './dto/me.dto';
import { MeService } from './me.service';

@ApiTags('me')
@Controller('v1/me')
export class MeController {
  constructor(private readonly me: MeService) {}

  @Get()
  @AnyCaller()
  @ApiOperation({
    summary: 'Who am I',
    description:
      'The caller as the gateway sees it: its kind, the actor name the audit log records, and each tenant it may ' +
      'act in with its roles and the operations it may call there. Any valid credential may ask, a user token ' +
      'whatever its groups give. Answers an ETag; send it back in If-None-Match to get 304 while nothing changed.',
  })
  @ApiOkResponse({
    type: MeView,
    headers: {
      ETag: {
        description: 'The entity tag of this answer, quotes included; send it back in If-None-Match.',
        schema: { type: 'string', example: '"5d41402abc4b2a76b9719d911017c592"' },
      },
    },
  })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match named the current ETag.' })
  async get(
    @CurrentPrincipal() principal: Principal,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MeView | undefined> {
    const me = await this.me.describe(principal);
    const etag = `"${sha256Hex(canonicalJson(me)).slice(0, 32)}"`;
    void reply.header('etag', etag).header('cache-control', 'private, no-cache');
    if (matches(ifNoneMatch, etag)) {
      void reply.status(304);
      return undefined;
    }
    return me;
  }
}

/** If-None-Match as RFC 9110 reads it: `*`, or a list of tags compared weakly. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}
