import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_METADATA, type Access } from '../../auth/auth.decorators';
import { validationProblem } from '../problem/validation';

/**
 * A route that reads no query string refuses one, naming each parameter, as routes with a query
 * DTO refuse what it does not declare: `POST …/pipes?dryRun=true` must not quietly create a pipe.
 * Operations routes (health, metrics) stay lenient, for probes and scrapers that add their own.
 */
@Injectable()
export class DeclaredQueryGuard implements CanActivate {
  private readonly refusesQuery = new WeakMap<object, boolean>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const query = context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown>;
    const names = Object.keys(query);
    if (names.length === 0) return true;
    const handler = context.getHandler();
    let refuses = this.refusesQuery.get(handler);
    if (refuses === undefined) {
      refuses = this.isPublic(context) ? false : !readsQuery(context);
      this.refusesQuery.set(handler, refuses);
    }
    if (refuses)
      throw validationProblem(names.map((name) => ({ path: name, message: 'is not a known field' })));
    return true;
  }

  private isPublic(context: ExecutionContext): boolean {
    const access = this.reflector.getAllAndOverride<Access | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    return access?.kind === 'public';
  }
}

function readsQuery(context: ExecutionContext): boolean {
  const parameters = (Reflect.getMetadata(
    ROUTE_ARGS_METADATA,
    context.getClass(),
    context.getHandler().name,
  ) ?? {}) as Record<string, unknown>;
  // Keys are "<RouteParamtypes>:<index>" (custom decorators add a prefix before the type).
  return Object.keys(parameters).some((key) => key.split(':')[0] === String(RouteParamtypes.QUERY));
}
