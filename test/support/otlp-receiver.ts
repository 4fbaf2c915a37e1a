import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import protobuf from 'protobufjs';

/** A span as received, in either encoding: ids in hex, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client, 1 internal. */
  kind: number;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status: { code: number; message: string };
  resource: Record<string, unknown>;
  scope: string;
}

export interface ReceivedExport {
  contentType: string;
  /** The body as it came, as text (latin1 for protobuf): what a secret search reads. */
  raw: string;
  spans: ReceivedSpan[];
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

// The messages of opentelemetry-proto's trace service the gateway sends (collector/trace/v1,
// trace/v1, common/v1, resource/v1), field numbers as there; fields left out are skipped on decode.
const TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  string trace_state = 3;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  fixed64 start_time_unix_nano = 7;
  fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9;
  repeated Event events = 11;
  Status status = 15;
  message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1;
    bool bool_value = 2;
    int64 int_value = 3;
    double double_value = 4;
    ArrayValue array_value = 5;
    KeyValueList kvlist_value = 6;
    bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const ExportTraceServiceRequest = protobuf
  .parse(TRACE_PROTO)
  .root.lookupType('otlp.ExportTraceServiceRequest');

/** OTLP/JSON and protobuf's toObject share one shape: camelCase fields, ids in hex or base64. */
interface OtlpObject {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId?: string;
        spanId?: string;
        parentSpanId?: string;
        traceState?: string;
        name?: string;
        kind?: number;
        attributes?: KeyValue[];
        events?: { name?: string; attributes?: KeyValue[] }[];
        status?: { code?: number; message?: string };
      }[];
    }[];
  }[];
}

interface KeyValue {
  key: string;
  value?: AnyValue;
}

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
  bytesValue?: string;
}

/**
 * An OTLP/HTTP trace receiver, as a collector is one: takes POST /v1/traces in `http/protobuf`
 * (decoded with protobufjs against the messages above) and in `http/json`, answers as a collector
 * does, and keeps every export with its body as it came.
 */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer((request, response) => {
      void this.receive(request).then(
        (contentType) => {
          const json = contentType.startsWith('application/json');
          response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
          response.end(json ? '{}' : undefined);
        },
        (error: unknown) => {
          response.writeHead(400, { 'content-type': 'text/plain' });
          response.end(String(error));
        },
      );
    });
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    return receiver;
  }

  /** The base address, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  spans(): ReceivedSpan[] {
    return this.exports.flatMap((each) => each.spans);
  }

  /** The spans of one trace, once `ready` holds of them (the exporter sends in batches). */
  async trace(
    traceId: string,
    ready: (spans: ReceivedSpan[]) => boolean,
    timeoutMs = 30_000,
  ): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const spans = this.spans().filter((span) => span.traceId === traceId);
      if (ready(spans)) return spans;
      if (Date.now() > deadline) {
        throw new Error(
          `trace ${traceId} incomplete after ${timeoutMs} ms: ${JSON.stringify(spans.map((span) => span.name))}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async receive(request: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const contentType = request.headers['content-type'] ?? '';
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      throw new Error(`unexpected ${request.method} ${request.url}`);
    }
    const json = contentType.startsWith('application/json');
    const decoded = json
      ? (JSON.parse(body.toString('utf8')) as OtlpObject)
      : (ExportTraceServiceRequest.toObject(ExportTraceServiceRequest.decode(body), {
          longs: String,
          bytes: String,
        }) as OtlpObject);
    // JSON carries ids in hex (OTLP/JSON), protobuf's toObject in base64.
    const id = json ? (text = '') => text : (text = '') => Buffer.from(text, 'base64').toString('hex');
    const spans: ReceivedSpan[] = [];
    for (const resourceSpans of decoded.resourceSpans ?? []) {
      const resource = attributesOf(resourceSpans.resource?.attributes);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          spans.push({
            traceId: id(span.traceId),
            spanId: id(span.spanId),
            parentSpanId: id(span.parentSpanId),
            traceState: span.traceState ?? '',
            name: span.name ?? '',
            kind: span.kind ?? 0,
            attributes: attributesOf(span.attributes),
            events: (span.events ?? []).map((event) => ({
              name: event.name ?? '',
              attributes: attributesOf(event.attributes),
            })),
            status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
            resource,
            scope: scopeSpans.scope?.name ?? '',
          });
        }
      }
    }
    this.exports.push({ contentType, raw: body.toString(json ? 'utf8' : 'latin1'), spans });
    return contentType;
  }
}

function attributesOf(list: KeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));
}

function valueOf(value: AnyValue = {}): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.kvlistValue !== undefined) return attributesOf(value.kvlistValue.values);
  return value.bytesValue;
}
