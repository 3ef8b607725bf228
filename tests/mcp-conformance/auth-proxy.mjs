#!/usr/bin/env node
// auth-proxy.mjs: a loopback reverse proxy that adds `Authorization: Bearer <token>`
// to every request, so the MCP conformance suite (which has no option to send
// headers) can test a server that requires a bearer token.
//
//   MCP_BEARER_TOKEN=... node auth-proxy.mjs --listen 127.0.0.1:3999 --upstream http://127.0.0.1:8765
//   conformance server --url http://127.0.0.1:3999/mcp
//
// Everything else passes through untouched: method, path, query, body, and all
// request headers INCLUDING Host and Origin (so the suite's dns-rebinding
// scenario still reaches the server's own Host/Origin check; a loopback Host on
// a different port must therefore be accepted by the server, which is the case
// for rmcp's allowed_hosts entries without a port and for a host-only check).
// Responses (including SSE streams) are piped back unbuffered. No dependencies;
// runs on Node 18+.
import http from 'node:http';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const listen = arg('--listen', process.env.PROXY_LISTEN || '127.0.0.1:3999');
const upstream = new URL(arg('--upstream', process.env.PROXY_UPSTREAM || 'http://127.0.0.1:8765'));
const token = process.env.MCP_BEARER_TOKEN;
if (!token) {
  console.error('auth-proxy: set MCP_BEARER_TOKEN');
  process.exit(2);
}
if (upstream.protocol !== 'http:') {
  console.error('auth-proxy: only http:// upstreams are supported');
  process.exit(2);
}
const [listenHost, listenPort] = [listen.slice(0, listen.lastIndexOf(':')), Number(listen.slice(listen.lastIndexOf(':') + 1))];
const verbose = process.argv.includes('--verbose');

// Hop-by-hop headers are not forwarded (RFC 9110 section 7.6.1).
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

const agent = new http.Agent({ keepAlive: true });

const server = http.createServer((req, res) => {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (!HOP.has(k)) headers[k] = v;
  }
  headers['authorization'] = `Bearer ${token}`;
  const basePath = upstream.pathname.replace(/\/$/, '');
  const up = http.request(
    {
      agent,
      hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
      port: upstream.port || 80,
      method: req.method,
      path: basePath + req.url,
      headers, // includes the client's Host header unchanged
    },
    (upRes) => {
      if (verbose) console.error(`${req.method} ${req.url} host=${req.headers.host} -> ${upRes.statusCode} ${upRes.headers['content-type'] || ''}`);
      const out = {};
      for (const [k, v] of Object.entries(upRes.headers)) {
        if (!HOP.has(k)) out[k] = v;
      }
      res.writeHead(upRes.statusCode, upRes.statusMessage, out);
      res.flushHeaders();
      upRes.pipe(res);
    }
  );
  up.on('error', (err) => {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`auth-proxy: upstream error: ${err.message}\n`);
    } else {
      res.destroy(err);
    }
  });
  // If the client goes away (e.g. the suite cancels an SSE stream), drop the upstream request too.
  res.on('close', () => {
    if (!res.writableFinished) up.destroy();
  });
  req.pipe(up);
});

server.listen(listenPort, listenHost, () => {
  console.error(`auth-proxy: http://${listen} -> ${upstream.href} (adds Authorization: Bearer ***)`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));
