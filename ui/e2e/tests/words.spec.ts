import path from 'node:path';
import { test, expect, settled } from '../helpers/fixtures';
import { SCREENSHOT_DIR } from '../helpers/paths';
import { Service } from '../helpers/service';

// Settings → Transcription → Words to know: names and terms typed (several at
// once, separated by commas) become chips saved in `transcription.vocabulary`,
// a word already there is not added twice, and a chip's × removes it.

let service: Service;

test.beforeAll(async () => {
  service = await Service.start({});
});

test.afterAll(async () => {
  await service?.stop();
});

test('words to know are added, kept once, saved and removed', async ({ page }) => {
  await service.signIn(page);
  await page.goto(service.url('/settings/transcription'));
  await settled(page);
  const words = page.getByRole('region', { name: 'Words to know' });
  await expect(words.getByText('No words yet.')).toBeVisible();
  const input = words.getByLabel('Add words (separate several with commas)');
  await input.fill('Siobhan Gallagher, Kubernetes,  Krzysztof Kowalczyk ');
  await words.getByRole('button', { name: 'Add' }).click();
  await expect(words.getByText('Saved')).toBeVisible();
  await input.fill('kubernetes, Grafana');
  await words.getByRole('button', { name: 'Add' }).click();
  await expect(words.getByRole('listitem')).toHaveCount(4);
  const saved = await service.call<{ transcription: { vocabulary: string[] } }>('GET', '/ui/settings');
  expect(saved.body.transcription.vocabulary).toEqual([
    'Siobhan Gallagher',
    'Kubernetes',
    'Krzysztof Kowalczyk',
    'Grafana',
  ]);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'settings-words-to-know.png'), fullPage: true });
  await words.getByRole('button', { name: 'Remove Kubernetes' }).click();
  await expect(words.getByRole('listitem')).toHaveCount(3);
  await page.reload();
  await settled(page);
  await expect(page.getByRole('region', { name: 'Words to know' }).getByRole('listitem')).toHaveCount(3);
});
