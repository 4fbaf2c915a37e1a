import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { PROBLEM_CONTENT_TYPE, problemFor } from '../common/problem/problem';
import { toProblem } from '../common/problem/to-problem';
import { requestTraceIds } from '../tracing/tracing';

export const CONSOLE_PATH = '/console';

/** What the console reads at start: where to sign in, or null to ask for a gateway key. */
export interface ConsoleSettings {
  signIn: { issuer: string; clientId: string } | null;
}

/**
 * The console's policy: its own scripts and styles only (no inline code, no eval), calls to the
 * gateway and, to exchange a sign-in code for a token, to the issuer; no framing.
 */
export function consoleContentSecurityPolicy(config: AppConfig): string {
  const issuer = config.console.oidcClientId && config.oidc ? ` ${new URL(config.oidc.issuer).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self'${issuer}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function consoleSettings(config: AppConfig): ConsoleSettings {
  const clientId = config.console.oidcClientId;
  return { signIn: clientId && config.oidc ? { issuer: config.oidc.issuer, clientId } : null };
}

/** The console as `npm run build` leaves it: dist/console beside the gateway's own build. */
export function builtConsoleDirectory(): string {
  // From src/console (tests) or dist/src/console (a build) up to the folder holding package.json.
  let folder = __dirname;
  while (!existsSync(join(folder, 'package.json')) && dirname(folder) !== folder) folder = dirname(folder);
  return join(folder, 'dist', 'console');
}

/**
 * Serves the web console's static files at /console/ with their own strict Content-Security-Policy
 * (the API keeps its headers), and /console/config.json, the settings the console cannot be given
 * inline under that policy. Hashed assets are cached for good; the page itself is revalidated.
 */
export function serveConsole(fastify: FastifyInstance, config: AppConfig, directory: string): void {
  const policy = consoleContentSecurityPolicy(config);
  const settings = JSON.stringify(consoleSettings(config));
  const built = existsSync(join(directory, 'index.html'));
  void fastify.register(async (scope) => {
    // Runs after the global onRequest hook has set the API's headers: this policy replaces its CSP.
    scope.addHook('onSend', (_request, reply, payload, done) => {
      void reply.header('content-security-policy', policy);
      done(null, payload);
    });
    scope.get(`${CONSOLE_PATH}/config.json`, (_request, reply) => {
      void reply.header('cache-control', 'no-store').type('application/json; charset=utf-8').send(settings);
    });
    scope.get(CONSOLE_PATH, (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`));
    if (!built) {
      scope.get(`${CONSOLE_PATH}/*`, (request, reply) => {
        const notBuilt = problemFor(
          404,
          'The console is not built here: run `npm run build`, then start the gateway again.',
        );
        const { body } = toProblem(notBuilt, String(request.id), requestTraceIds(request.raw)?.traceId);
        void reply.status(404).header('content-type', PROBLEM_CONTENT_TYPE).send(body);
      });
      return;
    }
    await scope.register(fastifyStatic, {
      root: directory,
      prefix: `${CONSOLE_PATH}/`,
      decorateReply: false,
      cacheControl: false,
      // The build writes a .gz beside each script and style sheet.
      preCompressed: true,
      index: ['index.html'],
      setHeaders: (response, path) => {
        response.setHeader(
          'cache-control',
          path.includes(`${join(directory, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  });
}
