/**
 * The web console in a real browser (Debian's chromium driven by playwright-core) against the
 * sandbox: both simulators, the OIDC issuer and the gateway started here on free ports, on this
 * run's database. Every page is checked with axe-core and photographed into test-output/console.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startDashboardsSimulator, startOidcIssuer, startPipesSimulator } from '../sandbox';
import type { DashboardsSimulator, OidcIssuer, PipesSimulator } from '../sandbox';
import type { Role } from '../src/auth/roles';
import {
  accessibilityViolations,
  hasChromium,
  launchChromium,
  NO_CHROMIUM,
  screenshot,
  SCREENSHOTS,
  watchForPageErrors,
} from './support/browser';
import { Collector, QUICK, WEBHOOK_SECRET } from './support/audit-sink-receivers';
import { buildConsole, type ConsoleBuild } from './support/console-build';
import { bearer, createTenant, platformAuth, type TestTenant } from './support/fixtures';
import { startGateway, type TestGateway } from './support/gateway';
import { describeIf } from './support/skip';

const CLIENT_ID = 'pipes-gateway-console';
const DASHBOARD_ID = '65f0c0ffee0000000000c0de';
const run = randomUUID().slice(0, 8);
// Group names are unique to the run: mappings are looked up across every tenant of the database.
const GROUPS: Record<'admins' | Role, string> = {
  admins: `console-admins-${run}`,
  admin: `console-admin-${run}`,
  operator: `console-operators-${run}`,
  viewer: `console-viewers-${run}`,
  auditor: `console-auditors-${run}`,
};
const AUDITED_PERSON = `carol-${run}@example.com`;
/** Run in the page: the time since its navigation started once `selector` is shown, else 0. */
const RENDERED_AT = (selector: string): number => {
  const page = globalThis as unknown as { document: { querySelector(selector: string): unknown } };
  return page.document.querySelector(selector) ? performance.now() : 0;
};

describeIf(hasChromium, NO_CHROMIUM)('the web console in a browser (e2e)', () => {
  let build: ConsoleBuild;
  let pipes: PipesSimulator;
  let dashboards: DashboardsSimulator;
  let issuer: OidcIssuer;
  let gateway: TestGateway;
  let tenant: TestTenant;
  let browser: Browser;
  // The audit log's copy outside the gateway: a webhook collector, refusing when a test says so.
  let collector: Collector;
  const organizationId = randomUUID();
  const serviceId = randomUUID();
  const timings: Record<string, number> = {};

  const api = () => gateway.http;
  const consoleUrl = () => `${gateway.url}/console/`;

  beforeAll(async () => {
    build = await buildConsole();
    const pipesKey = { keyId: `console-${run}`, keySecret: randomUUID() };
    const dashboardsToken = randomUUID();
    pipes = await startPipesSimulator({
      keys: [pipesKey],
      // Long enough to be seen, short enough to wait for.
      stateDelaysMs: { provisioning: 4_000, stopping: 2_000 },
    });
    dashboards = await startDashboardsSimulator({ tokens: [dashboardsToken] });
    dashboards.seedDashboard({
      id: DASHBOARD_ID,
      name: 'Checkout',
      tags: ['payments'],
      tiles: [{ name: 'Errors per minute', x: 0, y: 0, w: 6, h: 3, series: [] }],
    });
    issuer = await startOidcIssuer({
      audience: 'pipes-gateway-console-test',
      suggestedGroups: Object.values(GROUPS),
    });
    collector = new Collector();
    const collectorUrl = await collector.listen();
    gateway = await startGateway(
      {
        ...QUICK,
        AUDIT_WEBHOOK_URL: `${collectorUrl}/ingest`,
        AUDIT_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PIPES_API_URL: pipes.url,
        DASHBOARDS_API_URL: dashboards.url,
        OIDC_ISSUER: issuer.url,
        OIDC_AUDIENCE: issuer.audience,
        CONSOLE_OIDC_CLIENT_ID: CLIENT_ID,
      },
      { consoleDirectory: build.directory },
    );
    issuer.registerClient({ clientId: CLIENT_ID, redirectUris: [consoleUrl()] });

    tenant = await createTenant(gateway);
    const admin = bearer(tenant.keys.admin);
    await api()
      .post('/v1/credentials')
      .set(admin)
      .send({ kind: 'pipes', name: 'pipes', organizationId, ...pipesKey })
      .expect(201);
    await api()
      .post('/v1/credentials')
      .set(admin)
      .send({ kind: 'dashboards', name: 'dashboards', token: dashboardsToken })
      .expect(201);
    const roles: Record<keyof typeof GROUPS, Role[]> = {
      admins: ['admin', 'operator', 'auditor'],
      admin: ['admin'],
      operator: ['operator'],
      viewer: ['viewer'],
      auditor: ['auditor'],
    };
    for (const [name, group] of Object.entries(GROUPS)) {
      await api()
        .post(`/v1/admin/tenants/${tenant.id}/group-mappings`)
        .set(platformAuth)
        .send({ group, roles: roles[name as keyof typeof GROUPS] })
        .expect(201);
    }
    // A person's change to the dashboard, for the audit log to show and the versions to compare.
    const carol = bearer(
      await issuer.mint({ email: AUDITED_PERSON, email_verified: true, groups: [GROUPS.admins] }),
    );
    const read = await api().get(`/v1/dashboards/${DASHBOARD_ID}`).set(carol).expect(200);
    await api()
      .put(`/v1/dashboards/${DASHBOARD_ID}`)
      .set(carol)
      .set('If-Match', read.headers.etag)
      .send({ ...read.body.data, name: 'Checkout (errors)', tags: ['payments', 'errors'] })
      .expect(200);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    writeFileSync(join(SCREENSHOTS, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
    await browser?.close();
    await gateway?.close();
    await issuer?.close();
    await pipes?.close();
    await dashboards?.close();
    await collector?.close();
    build?.remove();
  });

  /** A fresh browser profile: nothing of an earlier sign-in is left. */
  async function newPage(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    return { context, page, problems: watchForPageErrors(page) };
  }

  /** Checks the page with axe-core, that it shows no error, and keeps a picture of it. */
  async function look(page: Page, name: string): Promise<void> {
    expect([name, await accessibilityViolations(page)]).toEqual([name, []]);
    expect([name, await page.getByRole('alert').allInnerTexts()]).toEqual([name, []]);
    await screenshot(page, name);
  }

  /** Signs in through the issuer's page, as a person would. */
  async function signIn(page: Page, email: string, groups: string[], pictures?: string): Promise<void> {
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: /^Sign in/ }).click();
    await page.waitForURL(`${issuer.url}/authorize?**`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Groups (comma-separated)').fill(groups.join(', '));
    if (pictures) await look(page, `${pictures}-issuer`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${consoleUrl()}**`);
    await page.locator('header .who', { hasText: `user:${email}` }).waitFor();
  }

  const section = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });

  it('signs in through the issuer with the code flow and PKCE, keeping the token out of storage', async () => {
    const { context, page, problems } = await newPage();
    await page.goto(consoleUrl());
    // Measured in the page: from the start of its navigation to the first frame showing the button.
    timings.firstRenderMs = Math.round(
      Number(await (await page.waitForFunction(RENDERED_AT, 'main button', { polling: 'raf' })).jsonValue()),
    );
    await look(page, '01-sign-in');

    const email = `dana-${run}@example.com`;
    const authorize = page.waitForRequest((request) => request.url().startsWith(`${issuer.url}/authorize?`));
    await page.getByRole('button', { name: 'Sign in' }).click();
    const asked = new URL((await authorize).url());
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('client_id')).toBe(CLIENT_ID);
    expect(asked.searchParams.get('redirect_uri')).toBe(consoleUrl());
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Groups (comma-separated)').fill(GROUPS.admins);
    await look(page, '02-issuer-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${consoleUrl()}?code=**`);
    // Back from the issuer: the code exchanged, /v1/me read, the first section shown.
    timings.signedInFirstPageMs = Math.round(
      Number(await (await page.waitForFunction(RENDERED_AT, 'main h1', { polling: 'raf' })).jsonValue()),
    );
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await expect(page.getByText(`user:${email}`).isVisible()).resolves.toBe(true);
    // The address bar no longer carries the code, and no storage holds the token.
    expect(page.url()).toBe(consoleUrl());
    const stored = await page.evaluate(
      'JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage } })',
    );
    expect(stored).toBe(JSON.stringify({ local: {}, session: {} }));
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows no provider error for a sign-in it did not start, so a link cannot put words in the console's mouth", async () => {
    const { context, page, problems } = await newPage();
    const spoof = new URLSearchParams({
      error: 'access_denied',
      error_description: 'Your account is locked. Call +1-555-0100 to restore access',
    });
    const signedOut = async (): Promise<void> => {
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      expect(page.url()).toBe(consoleUrl());
      expect(await page.locator('body').innerText()).not.toContain('555');
    };
    // No sign-in started in this browser.
    await page.goto(`${consoleUrl()}?${spoof.toString()}`);
    await signedOut();
    await look(page, '16-spoofed-error-ignored');
    // A sign-in started, and a link that guesses its state.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${issuer.url}/authorize?**`);
    spoof.set('state', 'guessed');
    await page.goto(`${consoleUrl()}?${spoof.toString()}`);
    await signedOut();
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows the provider's error for the sign-in it started", async () => {
    const { context, page, problems } = await newPage();
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${issuer.url}/authorize?**`);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('status')
      .getByText('The identity provider refused the sign-in: The person cancelled the sign-in.')
      .waitFor();
    await page.getByRole('button', { name: 'Sign in again' }).waitFor();
    expect(page.url()).toBe(consoleUrl());
    await look(page, '17-sign-in-cancelled');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('after signing in, lands where the link pointed: its filters and its open event', async () => {
    const events = await api()
      .get('/v1/audit')
      .query({ actor: `user:${AUDITED_PERSON}`, action: 'dashboard.replace' })
      .set(bearer(tenant.keys.auditor))
      .expect(200);
    const seq = events.body.items[0].seq as number;
    const { context, page, problems } = await newPage();
    const link = `#/audit?actor=${encodeURIComponent(`user:${AUDITED_PERSON}`)}&event=${seq}`;
    await page.goto(`${consoleUrl()}${link}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(`ivan-${run}@example.com`);
    await page.getByLabel('Groups (comma-separated)').fill(GROUPS.auditor);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Event ${seq}` }).waitFor();
    expect(new URL(page.url()).hash).toBe(link);
    await expect(page.getByLabel('Actor').inputValue()).resolves.toBe(`user:${AUDITED_PERSON}`);
    await look(page, '16a-signed-in-to-the-link');
    expect(problems).toEqual([]);
    await context.close();
  });

  describe('as a person with every role', () => {
    let context: BrowserContext;
    let page: Page;
    let problems: string[];

    beforeAll(async () => {
      ({ context, page, problems } = await newPage());
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await signIn(page, `erin-${run}@example.com`, [GROUPS.admins]);
    }, 60_000);
    afterAll(async () => {
      expect(problems).toEqual([]);
      await context.close();
    });

    it("filters the audit log to one person's actions and opens the diff of their change", async () => {
      await section(page, 'Audit log').click();
      await page.getByLabel('Actor').fill(`user:${AUDITED_PERSON}`);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const rows = page.locator('table.data tbody tr');
      // People by their address, keys by their name: the log's form on hover.
      await expect(
        rows.first().getByText(AUDITED_PERSON, { exact: true }).waitFor(),
      ).resolves.toBeUndefined();
      const actors = await rows.locator('td:nth-child(3)').allInnerTexts();
      expect(actors.length).toBeGreaterThan(0);
      expect(new Set(actors)).toEqual(new Set([AUDITED_PERSON]));
      await expect(rows.first().locator('td:nth-child(3)').getAttribute('title')).resolves.toBe(
        `user:${AUDITED_PERSON}`,
      );
      await page
        .getByRole('button', { name: /dashboard\.replace by/ })
        .first()
        .click();
      await page.getByRole('heading', { name: /^Event \d+$/ }).waitFor();
      await look(page, '03-audit-event');
      await page.getByRole('link', { name: "Compare this dashboard's versions" }).click();
      await page.getByText(/changed lines?: version 1 \(left\) against current \(right\)/).waitFor();
      const diff = page.getByRole('region', { name: /Differences: version 1 against current/ });
      await expect(diff.getByText('"Checkout (errors)"').count()).resolves.toBeGreaterThan(0);
      await look(page, '04-dashboard-diff');
    });

    it('verifies the chain, whole and against a checkpoint it took', async () => {
      await section(page, 'Audit log').click();
      await page.getByRole('button', { name: 'Verify the whole chain' }).click();
      await page.getByText(/ok: the chain is intact — \d+ events checked/).waitFor();
      await page.getByRole('button', { name: 'Take a checkpoint' }).click();
      const checkpoint = await page.getByLabel('The checkpoint').innerText();
      // Kept outside the gateway: copied, or saved as a file, both the JSON the form takes back.
      await page.getByRole('button', { name: 'Copy the checkpoint' }).click();
      await page.getByText('Copied: paste it where you keep checkpoints.').waitFor();
      expect(JSON.parse(await page.evaluate<string>('navigator.clipboard.readText()'))).toEqual(
        JSON.parse(checkpoint),
      );
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the checkpoint' }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toMatch(/^audit-checkpoint-seq-\d+\.json$/);
      expect(JSON.parse(readFileSync(await saved.path(), 'utf8'))).toEqual(JSON.parse(checkpoint));
      await page.getByLabel('A kept checkpoint (JSON)').fill(checkpoint);
      await page.getByRole('button', { name: 'Verify against this checkpoint' }).click();
      await page.getByText(/the checkpoint at seq \d+ was reached/).waitFor();
      await look(page, '05-audit-chain');
    });

    it('exports the filtered events as NDJSON', async () => {
      await section(page, 'Audit log').click();
      await page.getByLabel('Actor').fill(`user:${AUDITED_PERSON}`);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export as NDJSON' }).click();
      const file = await (await download).path();
      const lines = readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { actor: string; action: string; checkpoint?: string });
      // The export ends with the signed checkpoint of its last event.
      expect(typeof lines.at(-1)?.checkpoint).toBe('string');
      const events = lines.slice(0, -1);
      expect(events.length).toBeGreaterThan(0);
      expect(new Set(events.map((event) => event.actor))).toEqual(new Set([`user:${AUDITED_PERSON}`]));
      expect(events.map((event) => event.action)).toContain('dashboard.replace');
    });

    it('keeps the filters and the open event in the address: Back and Forward move through them', async () => {
      await section(page, 'Audit log').click();
      // Typed as a person knows it, without the `user:` of the log.
      await page.getByLabel('Actor').fill(AUDITED_PERSON);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      // The gateway says which actors the text stands for.
      await page
        .getByText(`Events by ${AUDITED_PERSON}, newest first. Looked for user:${AUDITED_PERSON}`)
        .waitFor();
      expect(new URL(page.url()).hash).toBe(`#/audit?actor=${encodeURIComponent(AUDITED_PERSON)}`);
      const rows = page.locator('table.audit-events tbody tr');
      await rows.first().getByText(AUDITED_PERSON, { exact: false }).waitFor();
      // The pending event before the upstream call and its outcome: one row, both times.
      const row = rows.filter({ hasText: 'dashboard.replace' }).first();
      await expect(row.locator('time').count()).resolves.toBe(2);
      await row.getByText(/asked/).waitFor();
      const replace = row.getByRole('button').first();
      const seq = await replace.innerText();
      await replace.click();
      await page.getByRole('heading', { name: `Event ${seq}` }).waitFor();
      await page.getByRole('term').getByText('Asked').waitFor();
      expect(new URL(page.url()).hash).toContain(`event=${seq}`);

      await page.goBack();
      await page.getByRole('heading', { name: `Event ${seq}` }).waitFor({ state: 'detached' });
      await page.goBack();
      await page.getByText('Every event, newest first.').waitFor();
      await expect(page.getByLabel('Actor').inputValue()).resolves.toBe('');
      await page.goForward();
      await page.goForward();
      await page.getByRole('heading', { name: `Event ${seq}` }).waitFor();
      await expect(page.getByLabel('Actor').inputValue()).resolves.toBe(AUDITED_PERSON);

      // Every action of a subject at once, chosen from the catalogue.
      await page.getByLabel('Action').selectOption('dashboard.');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByText(`Events by ${AUDITED_PERSON}, every dashboard action, newest first.`).waitFor();
      const actions = await page.locator('table.audit-events tbody td:nth-child(4)').allInnerTexts();
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.filter((action) => !action.startsWith('dashboard.'))).toEqual([]);
      await look(page, '03a-audit-filtered-by-subject');
    });

    it('hides the credential use roll-ups when asked, and says how many', async () => {
      await section(page, 'Audit log').click();
      await page.getByLabel('Action').selectOption('credential.use');
      // Roll-ups are written every half minute: read again until one is there.
      const rollUps = page.locator('table.audit-events tbody td:nth-child(4)', { hasText: 'credential.use' });
      for (let attempt = 0; attempt < 30 && (await rollUps.count()) === 0; attempt++) {
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForTimeout(2_000);
      }
      expect(await rollUps.count()).toBeGreaterThan(0);
      await page.getByLabel('Hide credential use roll-ups').check();
      await page.getByText(/\d+ credential use roll-ups hidden/).waitFor();
      await expect(rollUps.count()).resolves.toBe(0);
      expect(new URL(page.url()).hash).toContain('uses=hidden');
      await page.getByLabel('Hide credential use roll-ups').uncheck();
      await rollUps.first().waitFor();
    });

    it('records a review, and shows through which event, by whom, and what is new since', async () => {
      await section(page, 'Audit log').click();
      const status = page.locator('.review-status');
      await status.getByText(/^(Never reviewed|Reviewed through event)/).waitFor();
      const through = page.getByLabel('Reviewed through event');
      const head = Number(await through.inputValue());
      expect(head).toBeGreaterThan(0);
      await page.getByLabel('Note').fill('Console review: nothing unexplained');
      await page.getByRole('button', { name: 'Record the review' }).click();
      await page.getByText(new RegExp(`^Recorded: events \\d+ to ${head} reviewed by `)).waitFor();
      await status
        .getByText(new RegExp(`^Reviewed through event ${head} by .*erin-${run}@example.com$`))
        .waitFor();
      // Roll-ups of credential use may follow the review at any time: they are new since.
      await status.getByText(/: (nothing new since|\d+ events? new since, marked below)\.$/).waitFor();
      await look(page, '24-audit-reviewed');

      // A change after the review is new, marked in the list.
      await api()
        .post('/v1/credentials')
        .set(bearer(tenant.keys.admin))
        .send({ kind: 'secret', name: `after-review-${run}`, value: randomUUID() })
        .expect(201);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await status.getByText(/\d+ events? new since, marked below/).waitFor();
      const created = page.locator('table.audit-events tbody tr', { hasText: `after-review-${run}` });
      await created.getByText('new', { exact: true }).waitFor();
      await expect(created.locator('td:nth-child(4)').innerText()).resolves.toBe('credential.create');
      // The review itself is not waiting for one.
      const recorded = page.locator('table.audit-events tbody tr', { hasText: 'audit.review' }).first();
      await expect(recorded.getByText('new', { exact: true }).count()).resolves.toBe(0);
      // A range already reviewed is refused, with what may be reviewed.
      await through.fill(String(head));
      await page.getByRole('button', { name: 'Record the review' }).click();
      await page
        .getByRole('alert')
        .getByText(/review through a seq from \d+ to \d+/)
        .waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      // Leaving the page leaves the refusal behind.
      await section(page, 'Vault').click();
      await page.getByRole('heading', { name: 'Vault', exact: true }).waitFor();
    });

    it("shows whether the log's copy outside the gateway is kept up, and when it fails", async () => {
      await section(page, 'Audit log').click();
      const sinks = page.getByRole('list', { name: 'Copies of the log outside the gateway' });
      await sinks.getByText(/^Webhook copy: delivering/).waitFor();
      collector.answers.push(...Array<number>(1_000).fill(503));
      await api()
        .post('/v1/credentials')
        .set(bearer(tenant.keys.admin))
        .send({ kind: 'secret', name: `while-failing-${run}`, value: randomUUID() })
        .expect(201);
      for (let attempt = 0; attempt < 30 && !(await sinks.getByText('failing').count()); attempt++) {
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForTimeout(500);
      }
      await sinks.getByText(/^Webhook copy: failing since .*; the platform operator sees why\.$/).waitFor();
      expect(await sinks.innerText()).not.toContain('127.0.0.1');
      await look(page, '25-audit-sink-failing');
      collector.answers.length = 0;
      for (let attempt = 0; attempt < 30 && (await sinks.getByText('failing').count()); attempt++) {
        await page.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForTimeout(500);
      }
      await sinks.getByText(/^Webhook copy: delivering/).waitFor();
    });

    it('recovers by itself after an upstream outage, and offers to try again', async () => {
      dashboards.faults.add({ kind: 'status', status: 503, method: 'GET' });
      try {
        await section(page, 'Dashboards').click();
        const alert = page.getByRole('alert');
        await alert.getByRole('button', { name: 'Try again' }).waitFor({ timeout: 30_000 });
        expect(await accessibilityViolations(page)).toEqual([]);
        await screenshot(page, '26-dashboards-upstream-down');
      } finally {
        dashboards.faults.clear();
      }
      // Nobody clicks: the page reads again by itself once the upstream answers.
      await page.getByRole('link', { name: /^Checkout/ }).waitFor({ timeout: 60_000 });
      await expect(page.getByRole('alert').count()).resolves.toBe(0);

      dashboards.faults.add({ kind: 'status', status: 503, method: 'GET' });
      try {
        await page.getByRole('link', { name: /^Checkout/ }).click();
        await page
          .getByRole('alert')
          .getByRole('button', { name: 'Try again' })
          .first()
          .waitFor({ timeout: 30_000 });
      } finally {
        dashboards.faults.clear();
      }
      await page.getByRole('alert').getByRole('button', { name: 'Try again' }).first().click();
      await page.getByRole('heading', { name: /^Versions$/ }).waitFor();
      await page
        .getByRole('caption')
        .or(page.getByText('Stored versions'))
        .first()
        .waitFor({ timeout: 30_000 });
    });

    it('keeps what was typed in a refused form, never the secret, and names the field by its label', async () => {
      await section(page, 'Vault').click();
      await page.getByLabel('Pipes API key').check();
      await page.getByLabel('Name', { exact: true }).fill(`refused-${run}`);
      await page.getByLabel('Organization id').fill('not-an-organization');
      await page.getByLabel('Key id', { exact: true }).fill('key-refused');
      await page.getByLabel('Key secret').fill(`refused-secret-${run}`);
      await page.getByRole('button', { name: 'Add to the vault' }).click();
      const alert = page.getByRole('alert');
      await alert.getByText('Organization id', { exact: true }).waitFor();
      await expect(page.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe(`refused-${run}`);
      await expect(page.getByLabel('Organization id').inputValue()).resolves.toBe('not-an-organization');
      await expect(page.getByLabel('Key secret').inputValue()).resolves.toBe('');
      expect(await page.content()).not.toContain(`refused-secret-${run}`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, '27-vault-refused-kept');
    });

    it('creates a secret, shows where it is used, rotates it into its pipe and deletes it', async () => {
      const name = `warehouse-keys-${run}`;
      await section(page, 'Vault').click();
      await page.getByLabel('Secret', { exact: true }).check();
      await page.getByRole('button', { name: /Use named fields instead/ }).click();
      await page.getByRole('button', { name: 'Add a field' }).click();
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.locator('input[name="fieldName-0"]').fill('accessKeyId');
      await page.locator('input[name="fieldValue-0"]').fill('AKIACONSOLE0000001');
      await page.locator('input[name="fieldName-1"]').fill('secretKey');
      const secretValue = `first-${randomUUID()}`;
      await page.locator('input[name="fieldValue-1"]').fill(secretValue);
      await page.getByRole('button', { name: 'Add to the vault' }).click();
      await page.getByText(`${name} is in the vault. Its value will not be shown again.`).waitFor();
      // Sent once: the form holds it no more.
      await expect(page.locator('input[name="fieldValue-1"]').count()).resolves.toBe(0);

      const pipe = await api()
        .post(`/v1/organizations/${organizationId}/services/${serviceId}/pipes`)
        .set(bearer(tenant.keys.operator))
        .send(kinesisPipe(`orders-${run}`, name))
        .expect(200);
      await page.getByRole('link', { name }).click();
      // The pipe that uses it, linked to its page, its id on hover.
      const use = page.locator(`a[title="${pipe.body.result.id}"]`);
      await use.waitFor();
      expect(await use.getAttribute('href')).toBe(
        `#/pipes/${organizationId}/${serviceId}/${pipe.body.result.id}`,
      );
      await page.getByLabel('New accessKeyId').fill('AKIACONSOLE0000002');
      await page.getByLabel('New secretKey').fill(`second-${randomUUID()}`);
      await page.getByRole('button', { name: `Rotate ${name}` }).click();
      await page.getByText('Rotated: now version 2.').waitFor();
      await page
        .getByRole('table', { name: 'Pipes updated with the new value' })
        .getByText('updated')
        .waitFor();
      await look(page, '06-vault-rotated');
      expect(await page.content()).not.toContain(secretValue);

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByRole('link', { name }).waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Add a credential' }).waitFor();
    });

    it('watches a pipe change state, and stops it', async () => {
      const created = await api()
        .post(`/v1/organizations/${organizationId}/services/${serviceId}/pipes`)
        .set(bearer(tenant.keys.operator))
        .send(kinesisPipe(`clicks-${run}`, null))
        .expect(200);
      const pipeId = created.body.result.id as string;
      await section(page, 'Pipes').click();
      await page.getByLabel('Organization').selectOption(organizationId);
      await page.getByLabel('Service id').fill(serviceId);
      await page.getByRole('button', { name: 'Show pipes' }).click();
      const row = page.locator(`tr[data-pipe="${pipeId}"]`);
      await row.getByText('Provisioning').waitFor();
      await look(page, '07-pipes-provisioning');
      // Read again every few seconds: the simulator moves it on to Running by itself.
      await row.getByText('Running').waitFor({ timeout: 30_000 });
      // Stopping asks first; a running pipe is offered no start.
      expect(await row.getByRole('button', { name: `Start clicks-${run}` }).count()).toBe(0);
      await row.getByRole('button', { name: `Stop clicks-${run}` }).click();
      await row.getByRole('button', { name: 'Yes, stop' }).click();
      await row.getByText('Stopped').waitFor({ timeout: 30_000 });
      await screenshot(page, '08-pipes-stopped');
    });

    it('compares two submitted pipe specs and submits one again', async () => {
      // A spec whose secrets are references can be submitted again; inline ones were redacted.
      const secret = `resubmit-keys-${run}`;
      await api()
        .post('/v1/credentials')
        .set(bearer(tenant.keys.admin))
        .send({
          kind: 'secret',
          name: secret,
          value: { accessKeyId: 'AKIARESUBMIT000001', secretKey: randomUUID() },
        })
        .expect(201);
      await api()
        .post(`/v1/organizations/${organizationId}/services/${serviceId}/pipes`)
        .set(bearer(tenant.keys.operator))
        .send(kinesisPipe(`events-${run}`, secret))
        .expect(200);
      await section(page, 'Pipe spec history').click();
      const boxes = page.getByRole('checkbox', { name: /^Compare the spec of/ });
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await page.getByText(/changed lines?: clicks-/).waitFor();
      await look(page, '09-history-diff');
      await openNewestSpec(page);
      await page.getByLabel('New pipe name').fill(`again-${run}`);
      await page.getByRole('button', { name: 'Submit again' }).click();
      await page.getByText(/^Submitted again: pipe /).waitFor();
      await look(page, '10-history-resubmitted');
    });

    it("offers the pipes credentials' organizations and the spec history's services, and remembers the choice", async () => {
      const elsewhere = randomUUID();
      await api()
        .post(`/v1/organizations/${organizationId}/services/${elsewhere}/pipes`)
        .set(bearer(tenant.keys.operator))
        .send(kinesisPipe(`elsewhere-${run}`, null))
        .expect(200);
      await section(page, 'Audit log').click();
      await section(page, 'Pipes').click();
      // The service chosen before is remembered while the console is open.
      await page.getByRole('heading', { name: `Pipes of service ${serviceId}` }).waitFor();
      await expect(page.getByLabel('Service id').inputValue()).resolves.toBe(serviceId);
      // The organizations load after the page shows: read the choices once they are in.
      await page
        .getByLabel('Organization')
        .getByText('Loading the organizations…')
        .waitFor({ state: 'detached' });
      await expect(page.getByLabel('Organization').locator('option').allInnerTexts()).resolves.toEqual([
        `${organizationId} (pipes)`,
      ]);

      await page.getByLabel('Service id').fill('0000-not-a-service');
      await page.getByRole('button', { name: 'Show pipes' }).click();
      await page
        .getByRole('alert')
        .getByText('"0000-not-a-service" is not a service id: a service id is a UUID, 36 characters like')
        .waitFor();
      await expect(page.getByLabel('Service id').getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, '08a-pipes-service-id-refused');

      const known = page.getByRole('navigation', { name: 'Services in the spec history' });
      await known.getByRole('link', { name: serviceId }).waitFor();
      await known.getByRole('link', { name: elsewhere }).click();
      await page.getByRole('heading', { name: `Pipes of service ${elsewhere}` }).waitFor();
      await page.getByRole('cell', { name: `elsewhere-${run}`, exact: true }).waitFor();
      expect(page.url()).toBe(`${consoleUrl()}#/pipes/${organizationId}/${elsewhere}`);
      await look(page, '08b-pipes-chosen-from-history');
      await section(page, 'Dashboards').click();
      await section(page, 'Pipes').click();
      await page.getByRole('heading', { name: `Pipes of service ${elsewhere}` }).waitFor();
    });

    it('creates a pipe from a JSON spec with a vault secret reference, listing what a refused spec got wrong', async () => {
      const secret = `create-keys-${run}`;
      const secretKey = `created-${randomUUID()}`;
      await api()
        .post('/v1/credentials')
        .set(bearer(tenant.keys.admin))
        .send({ kind: 'secret', name: secret, value: { accessKeyId: 'AKIACREATE00000001', secretKey } })
        .expect(201);
      await section(page, 'Pipes').click();
      await page.getByLabel('Service id').fill(serviceId);
      await page.getByRole('button', { name: 'Show pipes' }).click();
      await page.getByRole('link', { name: 'Create a pipe' }).click();
      await page.getByRole('heading', { name: 'Create a pipe' }).waitFor();
      const editor = page.getByLabel('Spec (JSON)');
      await page.locator('#pipe-spec:enabled').waitFor();
      // The sample refers to a vault secret rather than holding one.
      await expect(editor.inputValue()).resolves.toMatch(/"accessKey": \{\s*"\$secret": "[^"]+"\s*\}/);
      await look(page, '17-pipe-create');

      const posted = () =>
        page.waitForRequest(
          (request) => request.method() === 'POST' && request.url().endsWith(`/services/${serviceId}/pipes`),
        );
      await editor.fill('{"name": "half-written",');
      await page.getByRole('button', { name: 'Create the pipe' }).click();
      await page
        .getByRole('alert')
        .getByText(/^The spec is not valid JSON .*Nothing was sent\.$/)
        .waitFor();

      await editor.fill(JSON.stringify({ name: '', source: { kinesis: { streamName: 'orders' } } }, null, 2));
      const refusedRequest = posted();
      await page.getByRole('button', { name: 'Create the pipe' }).click();
      const refusedKey = (await refusedRequest).headers()['idempotency-key'];
      expect(refusedKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const alert = page.getByRole('alert');
      await alert.getByText('The gateway refused this field:').waitFor();
      await expect(alert.locator('li').allInnerTexts()).resolves.toEqual(['name must not be empty']);
      await expect(alert.locator('li code').allInnerTexts()).resolves.toEqual(['name']);
      await expect(editor.getAttribute('aria-invalid')).resolves.toBe('true');
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, '18-pipe-create-refused');

      const spec = kinesisPipe(`made-${run}`, null) as { source: { kinesis: { accessKey: unknown } } };
      spec.source.kinesis.accessKey = 'KEY-GOES-HERE';
      await editor.fill(JSON.stringify(spec, null, 2));
      // The picker puts a reference where the selection is.
      await page.evaluate(
        `(() => { const area = document.getElementById('pipe-spec'); const at = area.value.indexOf('"KEY-GOES-HERE"');
          area.focus(); area.setSelectionRange(at, at + '"KEY-GOES-HERE"'.length); })()`,
      );
      await page.getByLabel('Vault secret').selectOption(secret);
      await page.getByRole('button', { name: 'Insert a reference at the cursor' }).click();
      await expect(editor.inputValue()).resolves.toContain(`"accessKey": {"$secret":"${secret}"}`);
      const createdRequest = posted();
      await page.getByRole('button', { name: 'Create the pipe' }).click();
      const createdKey = (await createdRequest).headers()['idempotency-key'];
      expect(createdKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(createdKey).not.toBe(refusedKey);
      await page.getByRole('heading', { name: `Pipe made-${run}` }).waitFor();
      expect(page.url()).toMatch(new RegExp(`#/pipes/${organizationId}/${serviceId}/[0-9a-f-]{36}$`));
      const read = page.getByLabel('The pipe as JSON');
      await expect(read.innerText()).resolves.toContain(`made-${run}`);
      expect(await page.content()).not.toContain(secretKey);
      await look(page, '19-pipe-detail');
    });

    it("on a pipe's page, replaces its settings, stops it, submits its spec again and deletes that pipe", async () => {
      // Where the last test left off: the page of the pipe it created.
      await page.getByRole('heading', { name: `Pipe made-${run}` }).waitFor();
      const madeId = new URL(page.url()).hash.split('/').pop()!;
      const settings = page.getByLabel('Settings (JSON)');
      await expect(settings.inputValue()).resolves.toMatch(/^\{/);
      await settings.fill('{"streaming_max_insert_wait_ms": 10}');
      await page.getByRole('button', { name: 'Save the settings' }).click();
      await page.getByRole('alert').locator('li code', { hasText: 'streaming_max_insert_wait_ms' }).waitFor();
      await settings.fill('{"streaming_max_insert_wait_ms": 2000}');
      await page.getByRole('button', { name: 'Save the settings' }).click();
      await page.getByText(/^Settings saved at /).waitFor();
      const stored = await api()
        .get(`/v1/organizations/${organizationId}/services/${serviceId}/pipes/${madeId}/settings`)
        .set(bearer(tenant.keys.viewer))
        .expect(200);
      expect(stored.body.result).toMatchObject({ streaming_max_insert_wait_ms: 2000 });

      const state = page.locator('dl.facts .badge');
      await state.getByText('Running').waitFor({ timeout: 30_000 });
      const commands = page.getByRole('group', { name: 'Commands' });
      await commands.getByRole('button', { name: 'Stop', exact: true }).click();
      await commands.getByRole('button', { name: 'Yes, stop' }).click();
      await state.getByText('Stopped').waitFor({ timeout: 30_000 });
      const specs = page.getByRole('region', { name: 'Its spec history' });
      await expect(specs.getByRole('row').count()).resolves.toBe(2);
      await look(page, '20-pipe-settings-and-history');

      await specs.getByLabel('New pipe name').fill(`made-again-${run}`);
      await specs.getByRole('button', { name: 'Submit again' }).click();
      await page.getByRole('heading', { name: `Pipe made-again-${run}` }).waitFor();
      const againId = new URL(page.url()).hash.split('/').pop()!;
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await page.getByRole('heading', { name: `Pipes of service ${serviceId}` }).waitFor();
      const history = await api()
        .get(`/v1/history/pipe-specs?serviceId=${serviceId}&limit=200`)
        .set(bearer(tenant.keys.auditor))
        .expect(200);
      const again = (history.body.items as { pipeId: string; deletedAt: string | null }[]).find(
        (record) => record.pipeId === againId,
      );
      expect(again?.deletedAt).toEqual(expect.any(String));
    });

    it('can be used from the keyboard alone', async () => {
      await section(page, 'Audit log').click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      // Back to the start of the page, where the first stop is the skip link.
      for (let step = 0; step < 12 && (await focusedText(page)) !== 'Skip to content'; step++) {
        await page.keyboard.press('Shift+Tab');
      }
      await expect(focusedText(page)).resolves.toBe('Skip to content');
      await page.keyboard.press('Enter');
      await expect(page.evaluate('document.activeElement.id')).resolves.toBe('main');
      // From the page's content back up to the sections, and to the vault.
      for (let step = 0; step < 12 && (await focusedText(page)) !== 'Vault'; step++) {
        await page.keyboard.press('Shift+Tab');
      }
      await expect(focusedText(page)).resolves.toBe('Vault');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Vault', exact: true }).waitFor();
      for (let step = 0; step < 12 && (await focusedText(page)) !== 'pipes'; step++) {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Where it is used' }).waitFor();

      // Creating a pipe, from the service's list to the form's button, by the keyboard alone.
      await section(page, 'Pipes').focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: /^Pipes of service / }).waitFor();
      for (let step = 0; step < 12 && (await focusedText(page)) !== 'Create a pipe'; step++) {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Enter');
      await page.locator('#pipe-spec:enabled').waitFor();
      const stops: string[] = [];
      for (let step = 0; step < 12 && !stops.includes('Create the pipe'); step++) {
        await page.keyboard.press('Tab');
        stops.push(
          await page.evaluate(
            'document.activeElement.getAttribute("aria-label") || document.activeElement.id || document.activeElement.textContent.trim()',
          ),
        );
      }
      expect(stops).toEqual(
        expect.arrayContaining(['Insert a reference at the cursor', 'pipe-spec', 'Create the pipe']),
      );
    });

    it('restores a dashboard version', async () => {
      await section(page, 'Dashboards').click();
      await look(page, '11-dashboards');
      await page.getByRole('link', { name: 'Checkout (errors)' }).click();
      await page.getByRole('button', { name: 'Restore version 1' }).click();
      await page.getByRole('button', { name: 'Yes, restore version 1' }).click();
      await page.getByText('Version 1 restored').waitFor();
      await look(page, '12-dashboard-restored');
      const current = await api()
        .get(`/v1/dashboards/${DASHBOARD_ID}`)
        .set(bearer(tenant.keys.viewer))
        .expect(200);
      expect(current.body.data).toMatchObject({ name: 'Checkout', tags: ['payments'] });
    });
    it('edits a dashboard with If-Match, and says so when someone else changed it first', async () => {
      // Where the last test left off: the restored dashboard's page.
      await page.getByRole('heading', { name: 'Dashboard Checkout' }).waitFor();
      await expect(page.getByLabel("The dashboard's current content").innerText()).resolves.toContain(
        '"name": "Checkout"',
      );
      await page.getByRole('button', { name: 'Edit the content' }).click();
      const editor = page.getByLabel('Content (JSON)');
      await editor.fill(
        (await editor.inputValue()).replace('"name": "Checkout"', '"name": "Checkout (console)"'),
      );
      const saved = page.waitForRequest((request) => request.method() === 'PUT');
      await page.getByRole('button', { name: 'Save the dashboard' }).click();
      expect((await saved).headers()['if-match']).toMatch(/^"[^"]+"$/);
      await page.getByText('Saved: the content it replaced is kept as the newest version.').waitFor();
      await page.getByRole('heading', { name: 'Dashboard Checkout (console)' }).waitFor();
      const admin = bearer(tenant.keys.admin);
      await expect(api().get(`/v1/dashboards/${DASHBOARD_ID}`).set(admin).expect(200)).resolves.toMatchObject(
        { body: { data: { name: 'Checkout (console)' } } },
      );

      // Someone else replaces it between this page's read and its save.
      await page.getByRole('button', { name: 'Edit the content' }).click();
      await editor.fill(
        (await editor.inputValue()).replace('"name": "Checkout (console)"', '"name": "Checkout (mine)"'),
      );
      const theirs = await api().get(`/v1/dashboards/${DASHBOARD_ID}`).set(admin).expect(200);
      await api()
        .put(`/v1/dashboards/${DASHBOARD_ID}`)
        .set(admin)
        .set('If-Match', theirs.headers.etag)
        .send({ ...theirs.body.data, name: 'Checkout (theirs)' })
        .expect(200);
      await page.getByRole('button', { name: 'Save the dashboard' }).click();
      await page
        .getByRole('alert')
        .getByText(/^Someone else changed this dashboard after you loaded it, so your change was not saved\./)
        .waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, '21-dashboard-changed-meanwhile');
      const kept = await api().get(`/v1/dashboards/${DASHBOARD_ID}`).set(admin).expect(200);
      expect(kept.body.data.name).toBe('Checkout (theirs)');

      await page.getByRole('button', { name: 'Reload the dashboard' }).click();
      await page.getByRole('heading', { name: 'Dashboard Checkout (theirs)' }).waitFor();
      await page.getByText('Reloaded: this is the dashboard as it is now.').waitFor();
      await look(page, '22-dashboard-reloaded');
    });
  });

  // What each role is offered: the sections its operations open, and the actions inside them.
  const OFFERED: Record<
    Role,
    { sections: string[]; manageVault: boolean; commandPipes: boolean; restore: boolean }
  > = {
    viewer: {
      sections: ['Vault', 'Pipes', 'Dashboards'],
      manageVault: false,
      commandPipes: false,
      restore: false,
    },
    operator: {
      sections: ['Vault', 'Pipes', 'Dashboards'],
      manageVault: false,
      commandPipes: true,
      restore: true,
    },
    admin: {
      sections: ['Vault', 'Pipes', 'Dashboards'],
      manageVault: true,
      commandPipes: true,
      restore: true,
    },
    auditor: {
      sections: ['Audit log', 'Pipe spec history'],
      manageVault: false,
      commandPipes: false,
      restore: false,
    },
  };

  it.each(Object.entries(OFFERED))('offers the %s role only what it may do', async (role, offered) => {
    const { context, page, problems } = await newPage();
    await signIn(page, `${role}-${run}@example.com`, [GROUPS[role as Role]]);
    const nav = page.getByRole('navigation', { name: 'Sections' });
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(offered.sections);
    await look(page, `13-role-${role}`);
    if (offered.sections.includes('Vault')) {
      await section(page, 'Vault').click();
      await page.getByRole('heading', { name: 'Vault' }).waitFor();
      await page.getByRole('link', { name: 'pipes', exact: true }).click();
      await page.getByRole('heading', { name: 'Where it is used' }).waitFor();
      expect(await page.getByRole('heading', { name: 'Add a credential' }).count()).toBe(
        offered.manageVault ? 1 : 0,
      );
      expect(await page.getByRole('button', { name: /^Rotate / }).count()).toBe(offered.manageVault ? 1 : 0);
      expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(
        offered.manageVault ? 1 : 0,
      );

      await section(page, 'Pipes').click();
      await page.getByLabel('Organization').selectOption(organizationId);
      await page.getByLabel('Service id').fill(serviceId);
      await page.getByRole('button', { name: 'Show pipes' }).click();
      await page.getByRole('cell', { name: `orders-${run}`, exact: true }).waitFor();
      expect(await page.getByRole('columnheader', { name: 'Commands' }).count()).toBe(
        offered.commandPipes ? 1 : 0,
      );
      await page.getByRole('link', { name: `orders-${run}`, exact: true }).click();
      await page.getByLabel(/^(Settings \(JSON\)|The pipe's settings)$/).waitFor();
      expect(await page.getByRole('button', { name: 'Stop', exact: true }).count()).toBe(
        offered.commandPipes ? 1 : 0,
      );
      expect(await page.getByLabel('Settings (JSON)').count()).toBe(offered.commandPipes ? 1 : 0);
      expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(
        offered.commandPipes ? 1 : 0,
      );
      await look(page, `13-role-${role}-pipe`);

      await page.goto(`${consoleUrl()}#/dashboards/${DASHBOARD_ID}`);
      await page.getByRole('caption').or(page.getByText('Stored versions')).first().waitFor();
      expect((await page.getByRole('button', { name: /^Restore version/ }).count()) > 0).toBe(
        offered.restore,
      );
      expect(await page.getByRole('button', { name: 'Edit the content' }).count()).toBe(
        offered.restore ? 1 : 0,
      );
    } else {
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      await section(page, 'Pipe spec history').click();
      await openNewestSpec(page);
      expect(await page.getByRole('button', { name: 'Submit again' }).count()).toBe(0);

      // An auditor follows a dashboard change to its versions and compares them, without the
      // dashboards section, the current content or restoring.
      await section(page, 'Audit log').click();
      await page.getByLabel('Actor').fill(`user:${AUDITED_PERSON}`);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page
        .getByRole('button', { name: /dashboard\.replace by/ })
        .first()
        .click();
      await page.getByRole('link', { name: "Compare this dashboard's versions" }).click();
      await page.getByRole('heading', { name: `Dashboard ${DASHBOARD_ID}` }).waitFor();
      await page
        .getByText(/(changed lines?|No differences): version \d+ \(left\) against version \d+ \(right\)/)
        .waitFor();
      expect(await page.getByRole('button', { name: /^Restore version/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit the content' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: '← All dashboards' }).count()).toBe(0);
      await look(page, `13-role-${role}-dashboard-versions`);

      // Every button of the audit page works for an auditor alone.
      await section(page, 'Audit log').click();
      await page.getByRole('button', { name: 'Verify the whole chain' }).click();
      await page.getByText(/ok: the chain is intact/).waitFor();
      await page.getByRole('button', { name: 'Take a checkpoint' }).click();
      await page.getByRole('button', { name: 'Download the checkpoint' }).waitFor();
      const exported = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export as NDJSON' }).click();
      await exported;
      await page.getByLabel('Hide credential use roll-ups').check();
      await page.getByRole('button', { name: 'Clear' }).click();
      await page
        .getByRole('button', { name: /^Event \d+:/ })
        .first()
        .click();
      await page.getByRole('heading', { name: /^Event \d+$/ }).waitFor();
      expect(await page.getByRole('alert').allInnerTexts()).toEqual([]);
    }
    await followEveryLink(page);
    expect(problems).toEqual([]);
    await context.close();
  });

  /**
   * Opens every section the person is offered and follows every link on its page: each lands on
   * a page that shows its heading and no error (an auditor-only person included).
   */
  async function followEveryLink(page: Page): Promise<void> {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const sections = await nav
      .getByRole('link')
      .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    const followed = new Set<string>();
    for (const sectionHref of sections) {
      await page.goto(`${consoleUrl()}${sectionHref}`);
      await page.locator('main h1').waitFor();
      await page.waitForTimeout(1_000);
      const hrefs = await page
        .locator('main a[href^="#"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
      for (const target of hrefs.filter((href) => href !== '#main' && !followed.has(href)).slice(0, 8)) {
        followed.add(target);
        await page.goto(`${consoleUrl()}${target}`);
        await page.locator('main h1').waitFor();
        await page.waitForTimeout(1_000);
        expect([target, await page.getByRole('alert').allInnerTexts()]).toEqual([target, []]);
        expect(await page.locator('main').innerText()).not.toContain("open none of the console's sections");
      }
    }
  }

  it('lets a person whose groups reach two tenants choose one, and switch', async () => {
    // A group belongs to one tenant: the person reaches two through one group in each.
    const group = `console-two-tenants-${run}`;
    const other = await createTenant(gateway, `other-team-${run}`);
    for (const [id, suffix, roles] of [
      [tenant.id, 'a', ['auditor']],
      [other.id, 'b', ['viewer']],
    ] as const) {
      await api()
        .post(`/v1/admin/tenants/${id}/group-mappings`)
        .set(platformAuth)
        .send({ group: `${group}-${suffix}`, roles })
        .expect(201);
    }
    const { context, page, problems } = await newPage();
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(`grace-${run}@example.com`);
    await page.getByLabel('Groups (comma-separated)').fill(`${group}-a, ${group}-b`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose a tenant' }).waitFor();
    await look(page, '16-choose-a-tenant');
    await page.getByRole('button', { name: `other-team-${run}` }).click();
    const nav = page.getByRole('navigation', { name: 'Sections' });
    await page.getByRole('heading', { name: 'Vault' }).waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Vault', 'Pipes', 'Dashboards']);
    // Every call now names the tenant chosen: the other tenant's vault is empty.
    await page.getByText('The vault is empty.').waitFor();
    await page.getByLabel('Tenant').selectOption({ label: tenant.name });
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Audit log', 'Pipe spec history']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('tells a person whose groups give no role anywhere who assigns and maps groups', async () => {
    const { context, page, problems } = await newPage();
    await page.goto(consoleUrl());
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(`henry-${run}@example.com`);
    await page.getByLabel('Groups (comma-separated)').fill(`unassigned-${run}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'No tenant yet' }).waitFor();
    await page
      .getByText(
        /platform operator assign one of your groups to your team's tenant.*administrator map it to a role/,
      )
      .waitFor();
    await look(page, '23-no-tenant-yet');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks to sign in again once the token has expired', async () => {
    const { context, page } = await newPage();
    await page.clock.install();
    await signIn(page, `frank-${run}@example.com`, [GROUPS.viewer]);
    // The sandbox issuer's tokens live an hour.
    await page.clock.fastForward('01:00:05');
    await page.getByText(/^Your sign-in expired at .+\. Sign in again to continue\.$/).waitFor();
    await page.getByRole('button', { name: 'Sign in again' }).waitFor();
    await look(page, '14-sign-in-again');
    await context.close();
  });

  it('takes a pasted gateway key where the console has no sign-in', async () => {
    const keysOnly = await startGateway({}, { consoleDirectory: build.directory });
    const { context, page, problems } = await newPage();
    try {
      const keyTenant = await createTenant(keysOnly);
      await page.goto(`${keysOnly.url}/console/`);
      await page.getByLabel('Gateway key').fill(keyTenant.keys.auditor);
      await look(page, '15-paste-a-key');
      await page.getByRole('button', { name: 'Open the console' }).click();
      await page.getByRole('heading', { name: 'Audit log' }).waitFor();
      await page.locator('header .who', { hasText: `key:${keyTenant.keyIds.auditor}` }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await keysOnly.close();
    }
  });
});

/** From the history's list, the newest spec's own page. */
async function openNewestSpec(page: Page): Promise<void> {
  await page
    .getByRole('link')
    .filter({ has: page.locator('time') })
    .first()
    .click();
  await page.getByRole('heading', { name: /^Pipe spec: / }).waitFor();
}

/** The text of the element that has the keyboard focus. */
function focusedText(page: Page): Promise<string> {
  return page.evaluate('document.activeElement ? document.activeElement.textContent.trim() : ""');
}

/** A kinesis pipe whose access key is the vault secret `secret`, or given inline when null. */
function kinesisPipe(name: string, secret: string | null): object {
  return {
    name,
    source: {
      kinesis: {
        streamName: 'orders',
        region: 'us-east-1',
        authentication: 'IAM_USER',
        accessKey: secret
          ? { $secret: secret }
          : { accessKeyId: 'AKIAINLINE00000000', secretKey: `inline-${name}` },
      },
    },
    destination: {
      database: 'default',
      table: name.replace(/-/g, '_'),
      columns: [{ name: 'id', type: 'String' }],
    },
    fieldMappings: [{ sourceField: 'id', destinationField: 'id' }],
  };
}
