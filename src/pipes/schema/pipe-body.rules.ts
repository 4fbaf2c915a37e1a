/**
 * The rules of a pipe body that span fields, which JSON Schema as OpenAPI 3.0 has it cannot say.
 * They run only on a body the schema accepted, so every field they read has its published type.
 */
import type { BodyRule } from '../../common/validation/json-schema';
import { KAFKA_CREDENTIAL_FORMS, SOURCE_KINDS } from './pipe-bodies.schema';

type Fields = Record<string, unknown>;

function fields(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

/** The contract's create rule: `source` names exactly one kind. */
export const exactlyOneSourceKind: BodyRule = (body, errors) => {
  const source = fields(fields(body).source);
  if (SOURCE_KINDS.filter((kind) => present(source[kind])).length !== 1) {
    errors.push({
      path: 'source',
      message: `must contain exactly one source kind (${SOURCE_KINDS.join(', ')})`,
    });
  }
};

/** Kafka credentials are one of the service's forms, not a mix of two. */
export const oneKafkaCredentialForm: BodyRule = (body, errors) => {
  const credentials = fields(fields(fields(fields(body).source).kafka).credentials);
  const given = Object.keys(credentials).filter((name) => present(credentials[name]));
  const forms = KAFKA_CREDENTIAL_FORMS.filter((form) =>
    given.some((name) => (form as readonly string[]).includes(name)),
  );
  if (forms.length > 1) {
    errors.push({
      path: 'source.kafka.credentials',
      message: `must hold one form of credentials, not several: ${KAFKA_CREDENTIAL_FORMS.map((form) => `{${form.join(', ')}}`).join(', ')}`,
    });
  }
};

/** A start position "at a time" needs the time: kafka's from_timestamp and kinesis's AT_TIMESTAMP. */
export const startTimeGiven: BodyRule = (body, errors) => {
  const source = fields(fields(body).source);
  const offset = fields(fields(source.kafka).offset);
  if (offset.strategy === 'from_timestamp' && !present(offset.timestamp)) {
    errors.push({
      path: 'source.kafka.offset.timestamp',
      message: 'is required when strategy is from_timestamp',
    });
  }
  const kinesis = fields(source.kinesis);
  if (kinesis.iteratorType === 'AT_TIMESTAMP' && !present(kinesis.timestamp)) {
    errors.push({
      path: 'source.kinesis.timestamp',
      message: 'is required when iteratorType is AT_TIMESTAMP',
    });
  }
};
