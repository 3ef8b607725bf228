/**
 * A logging HTTP proxy in front of the whole browser (loopback included): every
 * request Chromium sends to the network passes here and is written down. Plain
 * HTTP to 127.0.0.1 is forwarded (the service); anything else is refused and
 * logged, so a test can prove the extension contacted nothing but its base URL.
 * Pages served by Playwright's `context.route` never reach the network.
 * Firefox's tests have no routing inside the browser: there `tunnel` names a
 * loopback port for the meeting hosts' CONNECTs (the fake pages over TLS).
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

export interface Logged {
  method: string;
  url: string;
  authorization: string | null;
  origin: string | null;
  lastEventId: string | null;
  /** The request body as text (filled in once it has arrived). */
  body: string;
  at: number;
}

export class Proxy {
  readonly log: Logged[] = [];
  /** Open CONNECT tunnels: the server no longer tracks a socket once it is one. */
  private readonly tunnels = new Set<Duplex>();
  private constructor(private readonly server: http.Server) {}

  static async start(options: { tunnel?: (host: string, port: number) => number | null } = {}): Promise<Proxy> {
    const server = http.createServer();
    const proxy = new Proxy(server);
    server.on('request', (request, response) => proxy.forward(request, response));
    server.on('connect', (request, socket, head) => {
      proxy.note(request, request.url ?? '');
      // A CONNECT socket has no error listener of its own: Chromium resetting
      // it (ECONNRESET) would otherwise be an uncaught error in the test run.
      socket.on('error', () => socket.destroy());
      proxy.tunnels.add(socket);
      socket.on('close', () => proxy.tunnels.delete(socket));
      const [host, port] = (request.url ?? '').split(':');
      const to = options.tunnel?.(host, Number(port)) ?? null;
      if (to === null) {
        socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        return;
      }
      const upstream = net.connect(to, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('close', () => upstream.destroy());
    });
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get address(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Requests whose URL starts with `prefix` (e.g. a method and path). */
  requests(method: string, path: string): Logged[] {
    return this.log.filter((r) => r.method === method && new URL(r.url).pathname === path);
  }

  async stop(): Promise<void> {
    // A browser that did not close leaves its tunnels open, and close() would
    // wait for them for ever.
    for (const socket of this.tunnels) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private note(request: http.IncomingMessage, url: string): Logged {
    const entry: Logged = {
      method: request.method ?? '',
      url,
      authorization: request.headers.authorization ?? null,
      origin: (request.headers.origin as string | undefined) ?? null,
      lastEventId: (request.headers['last-event-id'] as string | undefined) ?? null,
      body: '',
      at: Date.now(),
    };
    this.log.push(entry);
    request.on('data', (chunk: Buffer) => {
      if (entry.body.length < 65_536) entry.body += chunk.toString('utf8');
    });
    return entry;
  }

  private forward(request: http.IncomingMessage, response: http.ServerResponse): void {
    const url = request.url ?? '';
    this.note(request, url);
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1') {
      response.writeHead(502).end();
      return;
    }
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, path: target.pathname + target.search, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('error', () => response.destroy());
        answer.pipe(response);
      },
    );
    // Nothing listening: drop the connection, so the browser sees what it sees
    // without a proxy (a network error), not an HTTP answer.
    upstream.on('error', () => request.socket.destroy());
    // The browser or the service dropping a connection half-way (a closed
    // popup, a stopped service) is normal here; it ends this exchange only.
    request.on('error', () => upstream.destroy());
    response.on('error', () => upstream.destroy());
    response.on('close', () => upstream.destroy());
    request.pipe(upstream);
  }
}
