#!/usr/bin/env node
// Verifies a pipes-gateway audit log offline: an export (GET /v1/audit/export) or what an audit
// sink received, against the gateway's public signing keys (GET /v1/audit/signing-keys, saved to
// a file). It needs Node.js 18 or later and nothing else: copy this one file. It never contacts
// the gateway.
//
//   node verify-audit-log.mjs LOG.ndjson --keys SIGNING-KEYS.json
//
// LOG holds NDJSON lines: events (one per line, as the export writes them) and checkpoint lines
// {"checkpoint": "<compact JWS>"}, of one tenant or several, interleaved. For each tenant it
// recomputes the public digest chain (each event's digest is SHA-256 of its canonical form, which
// includes the digest of the event before) and checks every checkpoint's EdDSA signature; the
// events up to a checkpoint must be the ones it signed. Exit 0 and "ok" with the range covered for
// each tenant when every event is genuine and signed, else 1 and the first event that was altered,
// is missing, is out of place or is not covered by a checkpoint; 2 when it cannot run.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const GENESIS = '0'.repeat(64);
const CHECKPOINT_TYPE = 'pipes-gateway.audit-checkpoint';
const HEX_64 = /^[0-9a-f]{64}$/;
const USAGE = 'usage: node verify-audit-log.mjs LOG.ndjson --keys SIGNING-KEYS.json';

/** JSON with the keys of every object sorted (RFC 8785, JCS, for the values a log holds). */
function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const members = Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`);
  return `{${members.join(',')}}`;
}

/** An event's digest: SHA-256 (hex) of its canonical form, prevDigest included; null if malformed. */
function digestOf(event) {
  const text = (value) => typeof value === 'string';
  const orNull = (value, test) => value === null || test(value);
  const wellFormed =
    text(event.tenantId) &&
    Number.isSafeInteger(event.seq) &&
    text(event.at) &&
    text(event.actor) &&
    orNull(event.onBehalfOf, text) &&
    text(event.action) &&
    orNull(event.target, text) &&
    text(event.requestId) &&
    text(event.outcome) &&
    orNull(event.httpStatus, Number.isSafeInteger) &&
    text(event.prevDigest) &&
    HEX_64.test(event.prevDigest);
  if (!wellFormed) return null;
  const form = {
    action: event.action,
    actor: event.actor,
    at: event.at,
    details: event.details ?? null,
    httpStatus: event.httpStatus,
    onBehalfOf: event.onBehalfOf,
    outcome: event.outcome,
    prevDigest: event.prevDigest,
    requestId: event.requestId,
    seq: event.seq,
    target: event.target,
    tenantId: event.tenantId,
  };
  return createHash('sha256').update(canonical(form), 'utf8').digest('hex');
}

/** The verifying keys of a JWKS file, by key id. */
function readKeys(path) {
  const jwks = JSON.parse(readFileSync(path, 'utf8'));
  if (!jwks || !Array.isArray(jwks.keys)) throw new Error(`${path} is not a JWKS: it has no "keys" list`);
  const keys = new Map();
  for (const jwk of jwks.keys) {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.kid !== 'string') continue;
    keys.set(jwk.kid, createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }));
  }
  if (keys.size === 0) throw new Error(`${path} holds no Ed25519 key with a key id`);
  return keys;
}

/** A checkpoint's signed content, or a string saying why it is not genuine. */
function openCheckpoint(jws, keys) {
  const parts = typeof jws === 'string' ? jws.split('.') : [];
  if (parts.length !== 3) return 'is not a compact JWS';
  let header;
  let payload;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return 'is not a compact JWS';
  }
  if (header.alg !== 'EdDSA' || header.typ !== CHECKPOINT_TYPE) return 'is not an EdDSA audit checkpoint';
  const key = keys.get(header.kid);
  if (!key) return `is signed with key ${JSON.stringify(header.kid)}, which the keys file does not hold`;
  const signed = Buffer.from(`${parts[0]}.${parts[1]}`, 'ascii');
  if (!verify(null, signed, key, Buffer.from(parts[2], 'base64url')))
    return 'has a signature that does not verify';
  const { tenantId, seq, digest, at } = payload;
  if (
    typeof tenantId !== 'string' ||
    !Number.isSafeInteger(seq) ||
    !HEX_64.test(digest) ||
    typeof at !== 'string'
  )
    return 'is signed but does not say {tenantId, seq, digest, at}';
  return { tenantId, seq, digest, at, kid: header.kid };
}

/** One tenant's chain as read so far. */
class Chain {
  constructor(first) {
    this.first = first.seq;
    this.last = first.seq - 1;
    this.lastDigest = first.prevDigest;
    this.digests = Buffer.alloc(32 * 1024);
    this.pending = []; // checkpoints past the last event read
    this.signed = null; // the newest checkpoint the events reached
    this.fault = null;
  }

  digestAt(seq) {
    if (seq === this.first - 1) return this.firstPrevDigest;
    const at = (seq - this.first) * 32;
    return this.digests.subarray(at, at + 32).toString('hex');
  }

  add(event, digest) {
    if (this.last < this.first) this.firstPrevDigest = event.prevDigest;
    const at = (event.seq - this.first) * 32;
    if (at + 32 > this.digests.length) {
      const grown = Buffer.alloc(this.digests.length * 2);
      this.digests.copy(grown);
      this.digests = grown;
    }
    this.digests.write(digest, at, 'hex');
    this.last = event.seq;
    this.lastDigest = digest;
  }

  /** The first seq no checkpoint covers yet. */
  unsignedFrom() {
    return this.signed === null ? this.first : this.signed.seq + 1;
  }

  fail(seq, reason, line) {
    this.fault ??= { seq, reason, line };
  }
}

function parseArguments(argv) {
  const keysAt = argv.indexOf('--keys');
  const keysPath = keysAt === -1 ? undefined : argv[keysAt + 1];
  const rest = argv.filter((_, index) => index !== keysAt && index !== keysAt + 1);
  if (!keysPath || rest.length !== 1) return null;
  return { logPath: rest[0], keysPath };
}

async function main() {
  const args = parseArguments(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  let keys;
  try {
    keys = readKeys(args.keysPath);
  } catch (error) {
    console.error(`cannot read the keys: ${error.message}`);
    return 2;
  }
  const chains = new Map();
  const early = new Map(); // checkpoints of tenants none of whose events was read yet
  const problems = []; // lines that belong to no tenant
  // Checks a genuine checkpoint against a chain that holds its seq; else keeps it for later.
  const place = (chain, checkpoint) => {
    if (checkpoint.seq > chain.last) return void chain.pending.push(checkpoint);
    if (checkpoint.seq < chain.first) return; // before the first event read: nothing to compare
    if (chain.digestAt(checkpoint.seq) !== checkpoint.digest) {
      chain.fail(
        chain.unsignedFrom(),
        `checkpoint mismatch: the events up to seq ${checkpoint.seq} are not the ones key ` +
          `${checkpoint.kid} signed (one of seq ${chain.unsignedFrom()}..${checkpoint.seq} was changed, ` +
          'inserted or removed)',
        checkpoint.line,
      );
    } else if (chain.signed === null || checkpoint.seq > chain.signed.seq) chain.signed = checkpoint;
  };

  const lines = createInterface({ input: createReadStream(args.logPath), crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number += 1;
      if (text.trim() === '') continue;
      let record;
      try {
        record = JSON.parse(text);
      } catch {
        problems.push(`line ${number} is not JSON`);
        continue;
      }
      if (record && typeof record === 'object' && 'checkpoint' in record) {
        const opened = openCheckpoint(record.checkpoint, keys);
        if (typeof opened === 'string') {
          problems.push(`line ${number}: the checkpoint ${opened}`);
          continue;
        }
        const checkpoint = { ...opened, line: number };
        const chain = chains.get(checkpoint.tenantId);
        if (chain) place(chain, checkpoint);
        else early.set(checkpoint.tenantId, [...(early.get(checkpoint.tenantId) ?? []), checkpoint]);
        continue;
      }
      if (!record || typeof record.tenantId !== 'string' || !Number.isSafeInteger(record.seq)) {
        problems.push(`line ${number} is neither an event nor a checkpoint`);
        continue;
      }
      const digest = digestOf(record);
      let chain = chains.get(record.tenantId);
      if (!chain) {
        chain = new Chain({ seq: record.seq, prevDigest: digest === null ? GENESIS : record.prevDigest });
        chains.set(record.tenantId, chain);
        if (record.seq === 1 && record.prevDigest !== GENESIS)
          chain.fail(1, 'altered: the first event does not start the chain', number);
      }
      if (chain.fault) {
        // A gap whose event comes later was a reordering.
        if (chain.fault.reason === 'missing' && record.seq === chain.fault.seq) {
          chain.fault = {
            seq: record.seq,
            reason: `out of place: it comes after seq ${chain.fault.after}`,
            line: number,
          };
        }
        continue;
      }
      if (digest === null || digest !== record.digest) {
        chain.fail(record.seq, 'altered: its digest is not that of its content and prevDigest', number);
      } else if (record.seq <= chain.last) {
        // A sink may deliver an event twice, byte for byte; another event with a seq already read is not.
        if (record.seq < chain.first || chain.digestAt(record.seq) !== digest)
          chain.fail(record.seq, `out of place: a second, different event with seq ${record.seq}`, number);
      } else if (record.seq > chain.last + 1) {
        chain.fault = { seq: chain.last + 1, reason: 'missing', after: record.seq, line: number };
      } else if (record.prevDigest !== chain.lastDigest) {
        chain.fail(
          record.seq,
          'out of place: it does not follow the event before it (inserted or reordered)',
          number,
        );
      } else {
        chain.add(record, digest);
        for (const checkpoint of early.get(record.tenantId) ?? []) place(chain, checkpoint);
        early.delete(record.tenantId);
        const due = chain.pending.filter((checkpoint) => checkpoint.seq <= chain.last);
        chain.pending = chain.pending.filter((checkpoint) => checkpoint.seq > chain.last);
        for (const checkpoint of due) place(chain, checkpoint);
      }
    }
  } catch (error) {
    console.error(`cannot read ${args.logPath}: ${error.message}`);
    return 2;
  }

  let failed = problems.length > 0;
  for (const problem of problems) console.log(`FAILED  ${problem}`);
  for (const tenantId of early.keys()) {
    if (!chains.has(tenantId)) {
      failed = true;
      console.log(`FAILED  tenant ${tenantId}: a checkpoint, but none of its events`);
    }
  }
  for (const [tenantId, chain] of chains) {
    const beyond = chain.pending.reduce((most, checkpoint) => Math.max(most, checkpoint.seq), -1);
    if (!chain.fault && beyond > chain.last)
      chain.fail(
        chain.last + 1,
        `missing: a checkpoint signed seq ${beyond}, the log ends at seq ${chain.last}`,
      );
    if (!chain.fault && chain.unsignedFrom() <= chain.last)
      chain.fail(
        chain.unsignedFrom(),
        `unsigned: no checkpoint covers the events from seq ${chain.unsignedFrom()} to ${chain.last}`,
      );
    if (chain.fault) {
      failed = true;
      const where = chain.fault.line ? ` (line ${chain.fault.line})` : '';
      const reason =
        chain.fault.reason === 'missing'
          ? `missing: the log goes on at seq ${chain.fault.after}`
          : chain.fault.reason;
      console.log(`FAILED  tenant ${tenantId}: seq ${chain.fault.seq} ${reason}${where}`);
    } else {
      const { kid, at } = chain.signed;
      const count = chain.last - chain.first + 1;
      console.log(
        `ok  tenant ${tenantId}: seq ${chain.first}..${chain.last} (${count} events), signed by ${kid} at ${at}`,
      );
    }
  }
  if (chains.size === 0 && !failed) {
    console.log(`FAILED  ${args.logPath} holds no event`);
    failed = true;
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`failed: ${error.message}`);
    process.exit(2);
  },
);
