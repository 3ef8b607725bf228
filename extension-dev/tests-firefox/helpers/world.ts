/**
 * One Firefox test file's world: a real `recorder serve`, the fake meeting
 * hosts, the logging proxy in front of everything Firefox asks for, and
 * Firefox ESR with the extension pointed at the service.
 */
import type { Page } from 'puppeteer-core';
import { Service, type ServiceOptions } from '../../../ui/e2e/helpers/service';
import { MEETING_HOSTS, type Product, type State } from '../../tests/helpers/meetings';
import { Proxy } from '../../tests/helpers/proxy';
import { FakeHosts } from './fake-hosts';
import { launchFirefox, useService, type Firefox } from './firefox';

export interface FirefoxWorld {
  service: Service;
  hosts: FakeHosts;
  proxy: Proxy;
  firefox: Firefox;
  close(): Promise<void>;
}

export async function firefoxWorld(options: ServiceOptions = {}): Promise<FirefoxWorld> {
  const service = await Service.start(options);
  const hosts = await FakeHosts.start();
  const proxy = await Proxy.start({ tunnel: (host, port) => (port === 443 && MEETING_HOSTS.includes(host) ? hosts.port : null) });
  const address = new URL(proxy.address);
  const firefox = await launchFirefox({ host: address.hostname, port: Number(address.port) });
  await useService(firefox, service.base);
  return {
    service,
    hosts,
    proxy,
    firefox,
    close: async () => {
      await firefox.close().catch(() => undefined);
      await proxy.stop();
      await hosts.stop();
      await service.stop();
    },
  };
}

interface FakeWindow {
  fake: { ready?: () => Promise<void>; state: (name?: State) => State; setTitle: (text: string) => void };
}

/** Opens a product's meeting page in a new tab, in the lobby. */
export async function openMeeting(firefox: Firefox, product: Product, url = product.url): Promise<Page> {
  const tab = await firefox.browser.newPage();
  await tab.goto(url);
  if (product.source_app === 'zoom') await tab.evaluate(() => (window as unknown as FakeWindow).fake.ready?.());
  return tab;
}

export async function setState(tab: Page, state: State): Promise<void> {
  await tab.evaluate((s) => void (window as unknown as FakeWindow).fake.state(s), state);
}

export async function setTitle(tab: Page, title: string): Promise<void> {
  await tab.evaluate((t) => void (window as unknown as FakeWindow).fake.setTitle(t), title);
}
