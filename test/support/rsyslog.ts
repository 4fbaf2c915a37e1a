/**
 * A real rsyslog (Debian's rsyslogd) for the audit sink tests and bench:sinks: started in the
 * foreground on a port the OS picks (imtcp's listenPortFileName), with its own configuration and
 * work folder, writing each message it receives, as received, one a line, to a file. Plain TCP, or
 * TLS with rsyslog's OpenSSL driver (rsyslog-openssl) and a certificate the test makes with the
 * openssl command. Its main queue is direct: a message is in the file before rsyslog reads the
 * next, so what it closed a connection on is kept, even when it is stopped right after (a queued
 * message that rsyslog cannot write within its shutdown timeout is dropped).
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { endedLines } from './ended-lines';

export const RSYSLOGD = '/usr/sbin/rsyslogd';
/**
 * An audit record as the gateway's syslog sink sends it (syslog-transport.ts): timestamp, host,
 * MSGID, SD-ID, tenant id, seq, and the export's line for the record.
 */
export const SYSLOG_LINE =
  /^<110>1 (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (\S+) pipes-gateway - (audit|checkpoint) \[(audit|checkpoint)@32473 tenantId="([0-9a-f-]{36})" seq="(\d+)"\] (.*)$/;
export const hasRsyslog =
  existsSync(RSYSLOGD) && existsSync('/usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_ossl.so');
export const NO_RSYSLOG = `Debian's rsyslog and rsyslog-openssl are not installed (apt-get install -y rsyslog rsyslog-openssl)`;

export interface TestCertificates {
  /** The private CA's certificate file. */
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** A private CA and a server certificate for 127.0.0.1 and localhost, made with the openssl command. */
export function makeCertificates(dir: string): TestCertificates {
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  openssl(
    'req',
    '-x509',
    ...ec,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '1',
    '-subj',
    '/CN=audit test CA',
  );
  openssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', '/CN=localhost');
  writeFileSync(file('san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    file('server.pem'),
    '-days',
    '1',
    '-extfile',
    file('san.ext'),
  );
  return { caFile: file('ca.pem'), certFile: file('server.pem'), keyFile: file('server.key') };
}

export class Rsyslog {
  private child: ChildProcess | null = null;
  private constructor(
    readonly dir: string,
    private readonly tls: TestCertificates | null,
    public port = 0,
  ) {}

  /** Starts rsyslogd; `tls` makes it take only TLS connections. */
  static async start(tls: TestCertificates | null = null): Promise<Rsyslog> {
    const rsyslog = new Rsyslog(mkdtempSync(join(tmpdir(), 'pgw-rsyslog-')), tls);
    await rsyslog.restart();
    return rsyslog;
  }

  /** The file it writes each message it receives to, one a line. */
  get receivedFile(): string {
    return join(this.dir, 'received.log');
  }

  /**
   * The messages received so far, as sent (the framing's length taken off), in order of arrival.
   * rsyslog may be midway through writing one: only the lines it has ended count as received.
   */
  messages(): string[] {
    const out = this.receivedFile;
    return existsSync(out) ? endedLines(readFileSync(out, 'utf8')) : [];
  }

  /** Starts it again, on the port it had (the first start takes one the OS picks). */
  async restart(): Promise<void> {
    const portFile = join(this.dir, 'port');
    rmSync(portFile, { force: true });
    const driver = this.tls
      ? `global(DefaultNetstreamDriver="ossl" DefaultNetstreamDriverCAFile="${this.tls.caFile}"
               DefaultNetstreamDriverCertFile="${this.tls.certFile}" DefaultNetstreamDriverKeyFile="${this.tls.keyFile}")
         module(load="imtcp" StreamDriver.Name="ossl" StreamDriver.Mode="1" StreamDriver.AuthMode="anon")`
      : 'module(load="imtcp")';
    writeFileSync(
      join(this.dir, 'rsyslog.conf'),
      `global(workDirectory="${this.dir}" maxMessageSize="1m")
       main_queue(queue.type="Direct")
       ${driver}
       template(name="raw" type="string" string="%rawmsg%\\n")
       input(type="imtcp" port="${this.port}" listenPortFileName="${portFile}" ruleset="keep")
       ruleset(name="keep") { action(type="omfile" file="${this.receivedFile}" template="raw") }
      `,
    );
    const child = spawn(RSYSLOGD, ['-n', '-f', join(this.dir, 'rsyslog.conf'), '-i', join(this.dir, 'pid')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    this.child = child;
    // rsyslog writes the port file only for a port it picked; a restart waits for its own port.
    const listening = async () =>
      this.port === 0
        ? existsSync(portFile) && readFileSync(portFile, 'utf8').trim() !== ''
        : await new Promise<boolean>((resolve) => {
            const probe = connect(this.port, '127.0.0.1', () => resolve(true)).on('error', () =>
              resolve(false),
            );
            probe.once('connect', () => probe.destroy());
          });
    for (const deadline = Date.now() + 10_000; !(await listening());) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`rsyslogd did not start: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (this.port === 0) this.port = Number(readFileSync(portFile, 'utf8').trim());
  }

  /** Stops it; what it received stays in its file. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
