/**
 * Another local program holding the service's port while the service is down
 * (CONTRACT §12, "Clients verify the service"): it writes down every request's
 * method, URL, headers and body, and answers as an impostor would.
 */
import http from 'node:http';

export interface Heard {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * - `plausible`: answers everything as the service would look, with a made-up
 *   proof on the challenge and a healthy idle `/v1/health`;
 * - `not-found`: 404 to everything (any other web server on that port).
 */
export type Manner = 'plausible' | 'not-found';

export class Impostor {
  readonly heard: Heard[] = [];
  manner: Manner = 'plausible';
  private constructor(private readonly server: http.Server) {}

  static async start(port: number): Promise<Impostor> {
    const server = http.createServer();
    const impostor = new Impostor(server);
    server.on('request', (request, response) => impostor.answer(request, response));
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    return impostor;
  }

  /** Requests whose path is `path`. */
  requests(path: string): Heard[] {
    return this.heard.filter((h) => new URL(h.url, 'http://127.0.0.1').pathname === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(request: http.IncomingMessage, response: http.ServerResponse): void {
    const entry: Heard = { method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: '' };
    this.heard.push(entry);
    request.on('data', (chunk: Buffer) => {
      entry.body += chunk.toString('utf8');
    });
    request.on('end', () => {
      const path = new URL(entry.url, 'http://127.0.0.1').pathname;
      if (this.manner === 'not-found') {
        response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not Found');
        return;
      }
      const json = (status: number, body: unknown) =>
        response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/.well-known/recorder-identity') {
        // It cannot know SHA-256(token), so whatever it signs is wrong.
        json(200, { service: 'recorder', version: '0.1.0', proof: 'x'.repeat(43) });
      } else if (path === '/v1/health') {
        json(200, { status: 'ok', version: '0.1.0', recording: { active: false } });
      } else if (path === '/v1/recording/prompt') {
        json(201, { prompt_id: 'p1', expires_at: new Date(Date.now() + 60_000).toISOString() });
      } else {
        json(200, {});
      }
    });
  }
}
