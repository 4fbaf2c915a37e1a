import { ConfigError } from '../config/app-config';
import { tracingSettings } from './tracing-settings';

const ENDPOINT = 'http://collector:4318';

describe('tracingSettings', () => {
  it('is off without an OTLP endpoint, whatever else is set', () => {
    expect(tracingSettings({})).toBeNull();
    expect(
      tracingSettings({ OTEL_SERVICE_NAME: 'edge', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
    ).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
  });

  it('is on with either endpoint, the traces one first, over http/protobuf unless told', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT })).toEqual({
      protocol: 'http/protobuf',
      endpoint: ENDPOINT,
      endpointVariable: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    });
    expect(
      tracingSettings({
        OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT,
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example.com/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toEqual({
      protocol: 'http/json',
      endpoint: 'https://traces.example.com/v1/traces',
      endpointVariable: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    });
  });

  it('is off when the SDK is disabled or the traces exporter is none', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'TRUE' })).toBeNull();
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeNull();
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_SDK_DISABLED: 'false' }),
    ).not.toBeNull();
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json',
    ],
    [{ OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER must be otlp or none'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' },
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http or https URL',
    ],
  ])('refuses %j, naming the variable', (env, message) => {
    const read = () => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, ...env });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow(message);
  });

  it('never quotes the endpoint, which may hold a user-info', () => {
    expect(() =>
      tracingSettings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'ftp://user:hunter2secret@collector' }),
    ).toThrow(/^(?!.*hunter2secret)/);
  });
});
