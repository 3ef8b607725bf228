/**
 * The meeting hosts for Firefox: an HTTPS server on loopback answering every
 * meeting URL with its fake page (tests/pages), under a throwaway self-signed
 * certificate (Firefox runs with certificate errors accepted). The logging
 * proxy tunnels CONNECTs for the meeting hosts to it; Chromium's tests route
 * the same pages inside the browser instead.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fakePageFor, MEETING_HOSTS, type Variant } from '../../tests/helpers/meetings';

export class FakeHosts {
  variant: Variant = 'synthetic';
  private constructor(
    private readonly server: https.Server,
    private readonly folder: string,
  ) {}

  static async start(): Promise<FakeHosts> {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'recorder-fake-hosts-'));
    const key = path.join(folder, 'key.pem');
    const cert = path.join(folder, 'cert.pem');
    const names = MEETING_HOSTS.map((host) => `DNS:${host}`).join(',');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=recorder fake meetings', '-addext', `subjectAltName=${names}`,
    ], { stdio: 'pipe' });
    const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) });
    const hosts = new FakeHosts(server, folder);
    server.on('request', (request, response) => {
      const url = new URL(request.url ?? '/', `https://${request.headers.host ?? 'invalid'}`);
      const body = fakePageFor(url, hosts.variant);
      if (body === null) response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not a fake meeting page');
      else response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return hosts;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.folder, { recursive: true, force: true });
  }
}
