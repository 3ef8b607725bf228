// The extension's service worker (Firefox: its background script). It holds no
// state of its own between wake-ups: the badge's status, the last event id, the
// calls it prompted for and the tabs' detector reports live in
// `storage.session`, the base URL and token in `storage.local`.

import { ext } from '../lib/platform.js';
import { tabClosed, tabLoaded } from './calls.js';
import { ALARM, refresh } from './health.js';
import { handle } from './messages.js';
import { readStatus } from './status.js';
import { forgetWholeTab } from './tabs.js';

ext.runtime.onMessage.addListener((message, sender, sendResponse) => {
  handle(message, sender).then(sendResponse, (error) =>
    sendResponse({ ok: false, message: String(error?.message ?? error) }),
  );
  return true;
});

ext.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === ALARM) void refresh();
});

ext.runtime.onInstalled.addListener(() => void refresh());
ext.runtime.onStartup.addListener(() => void refresh());
// A closed tab takes its content scripts with it: the worker reports its
// calls' end. A tab that loaded a page may have left its call (its detector
// is asked). Neither needs the `tabs` permission: only tab ids are read.
ext.tabs.onRemoved.addListener((tabId) => {
  void forgetWholeTab(tabId);
  void tabClosed(tabId);
});
ext.tabs.onUpdated.addListener((tabId, change) => {
  if (change.status === 'complete') void tabLoaded(tabId);
});

ext.storage.onChanged.addListener((changes, area) => {
  if (area !== 'local') return;
  const paired = changes.token?.newValue !== undefined;
  const moved = changes.baseUrl !== undefined;
  if (paired || moved) void refresh();
});

// A worker Chrome stopped and started again (for a message or the alarm) picks
// up where it was: following the events again if the service still records.
void readStatus().then((status) => refresh(status.state === 'recording' ? {} : { maxAgeMs: 10_000 }));
