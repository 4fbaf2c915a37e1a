import type { FastifyReply } from 'fastify';
import { JSON_CONTENT_TYPE } from '../common/json-body';
import { PROBLEM_CONTENT_TYPE } from '../common/problem/problem';
import type { Freshness } from '../pipe-reads/pipe-reads.service';

/** What the facade answers: the upstream's status and envelope, secrets removed. */
export interface PipesAnswer {
  status: number;
  body: unknown;
  /** A replayed failure keeps its problem+json media type. */
  problem?: boolean;
  /** `body` as JSON text, when the service wrote it already (to store it): sent as it is. */
  json?: string;
  /** A read's: how long ago its upstream call began, and how much longer it may be reused. */
  freshness?: Freshness;
}

/** Sets the answer's status (and media type) on the reply; the body is what the handler returns. */
export function sendPipesAnswer(reply: FastifyReply, answer: PipesAnswer): unknown {
  void reply.status(answer.status);
  if (answer.freshness) {
    void reply
      .header('age', String(answer.freshness.ageSeconds))
      .header('cache-control', `private, max-age=${answer.freshness.maxAgeSeconds}`);
  }
  if (answer.problem) void reply.header('content-type', PROBLEM_CONTENT_TYPE);
  // Text already written goes out as it is.
  else if (answer.json !== undefined) void reply.header('content-type', JSON_CONTENT_TYPE);
  return answer.json ?? answer.body;
}
