import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenOrNameSetting } from './port-in-use';

describe('listenOrNameSetting', () => {
  it('names the setting when the port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const second = createServer();
    try {
      await expect(
        listenOrNameSetting(
          { SANDBOX_PIPES_PORT: port, SANDBOX_DASHBOARDS_PORT: 0 },
          () =>
            new Promise<void>((resolve, reject) => {
              second.once('error', reject);
              second.listen(port, '127.0.0.1', resolve);
            }),
        ),
      ).rejects.toThrow(
        `port ${port} is in use by another process: stop it, or set SANDBOX_PIPES_PORT to a free port (0 picks one)`,
      );
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });

  it('names every setting that asked for the taken port', async () => {
    const taken = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', port: 5000 });
    await expect(
      listenOrNameSetting({ SANDBOX_PIPES_PORT: 5000, SANDBOX_DASHBOARDS_PORT: 5000 }, () =>
        Promise.reject(taken),
      ),
    ).rejects.toThrow(
      'port 5000 is in use by another process: stop it, or set SANDBOX_PIPES_PORT or SANDBOX_DASHBOARDS_PORT',
    );
  });

  it('names the setting when the port needs privileges', async () => {
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES', port: 80 });
    await expect(listenOrNameSetting({ PORT: 80 }, () => Promise.reject(denied))).rejects.toThrow(
      'port 80 may not be opened by this user (ports below 1024 need privileges): set PORT to 1024 or above',
    );
  });

  it("names the address setting when the address is not this host's", async () => {
    const server = createServer();
    await expect(
      listenOrNameSetting(
        { PORT: 0 },
        () =>
          new Promise<void>((resolve, reject) => {
            server.once('error', reject);
            server.listen(0, '192.0.2.1', resolve);
          }),
      ),
    ).rejects.toThrow(
      '192.0.2.1 is not an address of this host: set HOST to one of its addresses (0.0.0.0 listens on all, 127.0.0.1 on this host alone)',
    );
  });

  it('passes other failures and successes through', async () => {
    const denied = Object.assign(new Error('listen EMFILE'), { code: 'EMFILE' });
    await expect(listenOrNameSetting({ PORT: 3000 }, () => Promise.reject(denied))).rejects.toBe(denied);
    await expect(listenOrNameSetting({ PORT: 3000 }, () => Promise.resolve(42))).resolves.toBe(42);
  });
});
