import 'reflect-metadata';
import { Controller, Get, Module, Param, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import axios from 'axios';
import type { AddressInfo } from 'node:net';
import { undiciAdapter, UpstreamTransport } from '../../src/upstream/undici-adapter';
import type { BaselineReady, UpstreamsReady } from '../lib/scenario';
import { pipesAuthorization } from '../lib/scenario';
import { serveChild } from './child';

const TIMEOUT_MS = 10_000;

/**
 * The gateway's stack and nothing of its own: Nest on Fastify, one axios instance per upstream on
 * the gateway's undici adapter, the upstream's auth header put on by a request interceptor, the
 * answer parsed and sent back. No key check, credential, breaker, redaction, log line, metric or
 * security header. What the gateway spends per read beyond this is its own work. It answers the
 * two reads with targets, on the upstreams' own paths.
 */
serveChild(async () => {
  const upstreams = JSON.parse(process.argv[2]) as UpstreamsReady;
  const pipes = client(upstreams.pipesUrl, pipesAuthorization(upstreams.pipesKey));
  const dashboards = client(upstreams.dashboardsUrl, `Bearer ${upstreams.dashboardsToken}`);
  const app = await NestFactory.create<NestFastifyApplication>(
    floorModule(pipes.axios, dashboards.axios),
    new FastifyAdapter(),
    { logger: false },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const ready: BaselineReady = {
    type: 'ready',
    url: `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`,
  };
  return {
    ready,
    stop: async () => {
      await app.close();
      await Promise.all([pipes.transport.close(), dashboards.transport.close()]);
    },
  };
});

type AxiosInstance = InstanceType<typeof axios.Axios>;

function client(
  baseUrl: string,
  authorization: string,
): { axios: AxiosInstance; transport: UpstreamTransport } {
  const transport = new UpstreamTransport(TIMEOUT_MS, { http: null, https: null, noProxy: '' });
  const instance = new axios.Axios({
    // It reads no answer header, so none is handed on.
    adapter: undiciAdapter(transport, { baseUrl, maxAnswerBytes: 4 * 1024 * 1024, answerHeaders: [] }),
  });
  instance.interceptors.request.use(
    (config) => {
      config.headers.set({ accept: 'application/json', authorization });
      return config;
    },
    null,
    { synchronous: true },
  );
  return { axios: instance, transport };
}

async function forward(upstream: AxiosInstance, url: string): Promise<unknown> {
  const response = await upstream.request<string>({ method: 'GET', url, timeout: TIMEOUT_MS });
  return JSON.parse(response.data) as unknown;
}

function floorModule(pipes: AxiosInstance, dashboards: AxiosInstance): Type {
  @Controller()
  class StackFloorController {
    @Get('v1/organizations/:organizationId/services/:serviceId/pipes/:pipeId/settings')
    settings(
      @Param('organizationId') organizationId: string,
      @Param('serviceId') serviceId: string,
      @Param('pipeId') pipeId: string,
    ): Promise<unknown> {
      return forward(
        pipes,
        `/v1/organizations/${organizationId}/services/${serviceId}/pipes/${pipeId}/settings`,
      );
    }

    @Get('api/v2/dashboards/:id')
    dashboard(@Param('id') id: string): Promise<unknown> {
      return forward(dashboards, `/api/v2/dashboards/${id}`);
    }
  }

  @Module({ controllers: [StackFloorController] })
  class StackFloorModule {}

  return StackFloorModule;
}
