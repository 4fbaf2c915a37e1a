import { ApiProperty } from '@nestjs/swagger';

export class AuditSinkView {
  @ApiProperty({ enum: ['syslog', 'webhook'] }) kind!: 'syslog' | 'webhook';
  @ApiProperty({
    example: 'tls://siem.internal:6514',
    description: 'Where it delivers, without credentials: user-info and query are left out.',
  })
  address!: string;
  @ApiProperty({ description: 'Events written but not yet delivered, over every tenant.' })
  eventsBehind!: number;
  @ApiProperty({ description: 'Age in seconds of the oldest event not yet delivered; 0 when none waits.' })
  secondsBehind!: number;
  @ApiProperty({ nullable: true, type: Date, description: 'When a batch was last delivered.' })
  lastDeliveryAt!: Date | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'the webhook receiver answered HTTP 503',
    description: 'The last delivery failure, kept after later deliveries succeed (see `lastErrorAt`).',
  })
  lastError!: string | null;
  @ApiProperty({ nullable: true, type: Date }) lastErrorAt!: Date | null;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'gateway-7c9f:1:5b2e4a1c',
    description:
      'The replica shipping the sink now (host, process and instance), or null when none holds its lease.',
  })
  shippedBy!: string | null;
}

export class AuditSinksView {
  @ApiProperty({ type: [AuditSinkView], description: 'The configured sinks; empty when none is.' })
  sinks!: AuditSinkView[];
}

/**
 * A sink as a tenant's auditor sees it: whether the log reaches it and how late, without where it
 * is or what failed there (the platform's view), which are the operator's to know.
 */
export class AuditSinkStateView {
  @ApiProperty({ enum: ['syslog', 'webhook'] }) kind!: 'syslog' | 'webhook';
  @ApiProperty({
    description:
      'Age in seconds of the oldest event the sink has not yet taken, over the whole gateway; 0 when it has them all.',
  })
  secondsBehind!: number;
  @ApiProperty({ nullable: true, type: Date, description: 'When a batch was last delivered.' })
  lastDeliveryAt!: Date | null;
  @ApiProperty({ nullable: true, type: Date, description: 'When a delivery last failed.' })
  lastErrorAt!: Date | null;
  @ApiProperty({
    description: 'Deliveries fail now: the last failure came after the last delivery. The operator sees why.',
  })
  failing!: boolean;
}

export class AuditSinkStatesView {
  @ApiProperty({
    type: [AuditSinkStateView],
    description: 'The configured sinks; empty when the audit log goes to none but the database.',
  })
  sinks!: AuditSinkStateView[];
}
