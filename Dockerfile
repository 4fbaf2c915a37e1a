# syntax=docker/dockerfile:1
# The Node release production runs; .ci/run runs the suites on Postgres on this same release.
FROM node:24.22.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
COPY prisma.config.ts ./
# Dependencies' install scripts are denied in package.json (allowScripts); skipped here whichever npm
# the image brings, then the project's own step runs (prisma generate, offline).
RUN npm ci --no-audit --no-fund --ignore-scripts && node scripts/prisma-generate.js
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY sandbox ./sandbox
# The web console (dist/console), built with Vite from its source and the typed client it calls.
COPY console ./console
COPY clients ./clients
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24.22.3-bookworm-slim
# MALLOC_ARENA_MAX as in `npm run start:prod` (docs/architecture.md, "Runtime flags").
ENV NODE_ENV=production MALLOC_ARENA_MAX=2
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/prisma ./prisma
COPY package.json ./
USER node
EXPOSE 3000
# PORT as the container runs it (the sandbox service of docker-compose.yml listens on another).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD curl -fsS "http://127.0.0.1:${PORT:-3000}/health/ready" || exit 1
# The runtime flags of `npm run start:prod` (docs/architecture.md, "Runtime flags").
CMD ["node", "--liftoff-only", "--max-semi-space-size=16", "--heap-growing-percent=50", "--no-allocation-site-pretenuring", "--no-maglev", "dist/src/main.js"]
