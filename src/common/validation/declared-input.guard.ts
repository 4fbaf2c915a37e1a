import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { declaredAccess } from '../../auth/auth.decorators';
import { unknownField, validationProblem } from '../problem/validation';

interface Reads {
  query: boolean;
  body: boolean;
}

const EVERYTHING: Reads = { query: true, body: true };

/**
 * A route refuses a query string or body fields it does not read, naming each, as routes with a
 * DTO refuse what it does not declare: `POST …/pipes?dryRun=true` must not quietly create a pipe,
 * nor a body sent to restore look as if it were used. An empty JSON object is no body. Operations
 * routes (health, metrics) stay lenient, for probes and scrapers that add their own parameters.
 */
@Injectable()
export class DeclaredInputGuard implements CanActivate {
  private readonly reads = new WeakMap<object, Reads>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const query = Object.keys(request.query as object);
    const body = request.body === undefined || request.body === null ? [] : Object.keys(request.body);
    if (query.length === 0 && body.length === 0) return true;
    const reads = this.readsOf(context);
    const unread = [...(reads.query ? [] : query), ...(reads.body ? [] : body)];
    if (unread.length > 0) {
      throw validationProblem(unread.map(unknownField));
    }
    return true;
  }

  private readsOf(context: ExecutionContext): Reads {
    const handler = context.getHandler();
    let reads = this.reads.get(handler);
    if (reads === undefined) {
      reads =
        declaredAccess(this.reflector, context)?.kind === 'public' ? EVERYTHING : parametersRead(context);
      this.reads.set(handler, reads);
    }
    return reads;
  }
}

function parametersRead(context: ExecutionContext): Reads {
  const parameters = (Reflect.getMetadata(
    ROUTE_ARGS_METADATA,
    context.getClass(),
    context.getHandler().name,
  ) ?? {}) as Record<string, unknown>;
  // Keys are "<RouteParamtypes>:<index>"; custom parameter decorators have other prefixes.
  const types = new Set(Object.keys(parameters).map((key) => key.split(':')[0]));
  return { query: types.has(String(RouteParamtypes.QUERY)), body: types.has(String(RouteParamtypes.BODY)) };
}
