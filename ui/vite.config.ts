import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The service serves dist/ itself. During development, `npm run dev` proxies
// the person's channel (/ui/*, including /ui/login and /ui/events) to a
// service started with `recorder serve --port 47400`.
const service = 'http://127.0.0.1:47400';

/**
 * Svelte's and marked's error messages carry links to their documentation and
 * issue tracker. Nothing fetches them, but the app is meant to hold no address
 * outside this computer at all: keep the words, drop the addresses.
 */
const EXTERNAL_TEXT: [string, string][] = [
  ['https://svelte.dev/e/', 'svelte error: '],
  ['https://github.com/markedjs/marked', 'the marked project'],
];
function noExternalAddresses(): Plugin {
  return {
    name: 'recorder-no-external-addresses',
    apply: 'build',
    renderChunk(code) {
      let out = code;
      for (const [from, to] of EXTERNAL_TEXT) out = out.replaceAll(from, to);
      return out === code ? null : { code: out, map: null };
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [svelte(), noExternalAddresses()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    sourcemap: false,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/ui': { target: service, changeOrigin: false, ws: false },
    },
  },
});
