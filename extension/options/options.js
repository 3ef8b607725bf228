// The options page: the service's address and the pairing.

import { DEFAULT_BASE_URL, forgetToken, loadConfig, normaliseBaseUrl } from '../lib/config.js';
import { ext } from '../lib/platform.js';

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = /** @type {HTMLInputElement} */ ($('base-url'));

async function show() {
  const config = await loadConfig();
  input.value = config.baseUrl;
  $('pairing').textContent = config.token
    ? `Paired with the app at ${config.baseUrl}.`
    : 'Not paired. Open the extension’s popup and type the code the app shows (Settings → Extension).';
  $('forget').hidden = !config.token;
}

/** @param {string} text */
async function save(text) {
  $('base-error').textContent = '';
  $('saved').textContent = '';
  let baseUrl;
  try {
    baseUrl = normaliseBaseUrl(text);
  } catch (error) {
    $('base-error').textContent = /** @type {Error} */ (error).message;
    input.focus();
    return;
  }
  const before = await loadConfig();
  if (baseUrl !== before.baseUrl) {
    // A token belongs to one service: it is never sent to another address.
    await forgetToken();
    await ext.storage.local.set({ baseUrl });
  }
  await ext.runtime.sendMessage({ type: 'options.changed' });
  $('saved').textContent = `Saved: ${baseUrl}`;
  await show();
}

$('form').addEventListener('submit', (event) => {
  event.preventDefault();
  void save(input.value);
});
$('reset').addEventListener('click', () => void save(DEFAULT_BASE_URL));
$('forget').addEventListener('click', async () => {
  await ext.runtime.sendMessage({ type: 'popup.forget' });
  await show();
});

void show();
