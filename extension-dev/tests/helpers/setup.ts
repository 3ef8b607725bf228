/**
 * One test's world: a real `recorder serve`, the logging proxy, and Chromium
 * with the extension pointed at the service (through `storage.local`, as the
 * options page saves it).
 */
import { expect, type Page } from '@playwright/test';
import { Service, type ServiceOptions } from '../../../ui/e2e/helpers/service';
import { badge, launch, openPopup, useService, type Browser } from './browser';
import { Proxy } from './proxy';

export interface World {
  service: Service;
  proxy: Proxy;
  browser: Browser;
  close(): Promise<void>;
}

export async function world(options: ServiceOptions = {}): Promise<World> {
  const service = await Service.start(options);
  const proxy = await Proxy.start();
  const browser = await launch({ proxy: proxy.address });
  await useService(browser, service.base);
  return {
    service,
    proxy,
    browser,
    close: async () => {
      await browser.close();
      await proxy.stop();
      await service.stop();
    },
  };
}

/** A fresh pairing code, as Settings → Extension shows it. */
export async function pairingCode(service: Service): Promise<string> {
  const answer = await service.call<{ code: string }>('POST', '/ui/pairing-code');
  expect(answer.status, answer.text).toBe(200);
  return answer.body.code;
}

/** Types `code` into the popup's form and presses Pair. */
export async function typeCode(popup: Page, code: string): Promise<void> {
  await popup.getByLabel('Pairing code').fill(code);
  await popup.getByRole('button', { name: 'Pair', exact: true }).click();
}

/** Pairs through the popup, as a person does; returns the popup. */
export async function pair(w: World): Promise<Page> {
  const popup = await openPopup(w.browser);
  await typeCode(popup, await pairingCode(w.service));
  await expect(popup.getByText('Ready, not recording')).toBeVisible();
  await expect.poll(() => badge(w.browser)).toBe('');
  return popup;
}
