import { Injectable } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { Actor } from '../auth/principal';
import { ProblemException } from '../common/problem/problem';
import { toProblem } from '../common/problem/to-problem';
import { PipesService } from '../pipes/pipes.service';
import { isUpdatablePath } from '../pipes/schema/pipe-bodies';
import { SecretUsers } from './secret-users';

export class PropagationOutcomeView {
  @ApiProperty() pipeId!: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "The pipe's name as the gateway last created or renamed it; null when it never did.",
  })
  pipeName!: string | null;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid' }) serviceId!: string;
  @ApiProperty({
    type: [String],
    description: 'Where in the pipe the secret stands, e.g. source.kafka.credentials.',
  })
  paths!: string[];
  @ApiProperty({
    type: [String],
    description:
      'Of those, the places an update cannot change (fixed at create, or inside a list): the pipe keeps the old ' +
      'value there until it is created again.',
  })
  notUpdatable!: string[];
  @ApiProperty({ enum: ['updated', 'failed'] }) outcome!: 'updated' | 'failed';
  @ApiProperty({ description: 'What the update of this pipe answered.' }) status!: number;
  @ApiPropertyOptional({ description: 'Why it failed: the problem the update answered.' })
  problem?: { type: string; title: string; detail: string };
}

/**
 * After a vault secret is rotated: each pipe that references it is updated upstream with the new
 * value, by a PATCH of just the places it stands (as references, so the audit keeps no value), one
 * pipe after another. A failure is reported with that pipe and stops nothing.
 */
@Injectable()
export class SecretPropagation {
  constructor(
    private readonly users: SecretUsers,
    private readonly pipes: PipesService,
  ) {}

  async propagate(tenantId: string, credentialId: string, actor: Actor): Promise<PropagationOutcomeView[]> {
    const users = await this.users.pipes(tenantId, credentialId);
    const outcomes: PropagationOutcomeView[] = [];
    // One after another: the pipes API allows few calls per key, and this is no hot path.
    for (const user of users) {
      const pipe = { ...user, notUpdatable: user.paths.filter((path) => !isUpdatablePath(path)) };
      try {
        const patch = patchAt(
          pipe.paths.filter((path) => !pipe.notUpdatable.includes(path)),
          { $secret: credentialId },
        );
        const answer = await this.pipes.update(tenantId, pipe, patch, actor, credentialId);
        outcomes.push({ ...pipe, outcome: 'updated', status: answer.status });
      } catch (error) {
        const { type, title, detail, status } = toProblem(error, actor.requestId).body;
        outcomes.push({ ...pipe, outcome: 'failed', status, problem: { type, title, detail } });
      }
    }
    return outcomes;
  }
}

/** An update body holding `value` at each of `paths` (dotted); with none, a 409 that says so. */
function patchAt(paths: string[], value: unknown): Record<string, unknown> {
  if (paths.length === 0) {
    throw new ProblemException({
      status: 409,
      type: 'secret-not-updatable-in-place',
      title: 'Secret not updatable in place',
      detail:
        'Every place this pipe uses the secret is fixed at create (or inside a list): create the pipe again.',
    });
  }
  const patch: Record<string, unknown> = {};
  for (const path of paths) {
    const segments = path.split('.');
    let at = patch;
    for (const segment of segments.slice(0, -1)) at = (at[segment] ??= {}) as Record<string, unknown>;
    at[segments[segments.length - 1]] = value;
  }
  return patch;
}
