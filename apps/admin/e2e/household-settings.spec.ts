import { screenshot, signInAs, startBrowserApp, type BrowserApp } from './support/browser-app';

jest.setTimeout(180_000);

const PHONE = { width: 390, height: 844 };

describe('browser: /settings/household', () => {
  let app: BrowserApp;
  beforeAll(async () => {
    app = await startBrowserApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  const settingsOf = async (familyId: string) =>
    (await app.t.dataSource.query(`SELECT name, currency, locale, timezone, date_format AS "dateFormat", month_start_day AS "monthStartDay" FROM families WHERE id = $1`, [familyId]))[0];

  it('an admin changes every setting; the header and the stored family follow', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const page = await app.newPage();
    await signInAs(page, admin.email);
    await page.getByRole('link', { name: 'Household' }).click();
    await page.getByRole('heading', { name: 'Household', level: 1 }).waitFor();
    await page.getByLabel('Household name').waitFor();
    await screenshot(page, 'household-settings');

    await page.getByLabel('Household name').fill('The Nguyens');
    await page.getByLabel('Currency').selectOption('EUR');
    await page.getByLabel('Locale').selectOption('de-DE');
    await page.getByLabel('Time zone').selectOption('Europe/Berlin');
    await page.getByLabel('Date format').selectOption({ label: '28.02.2026' });
    await page.getByLabel('Budget month starts on day').selectOption('15');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await page.getByRole('banner').getByText('The Nguyens').waitFor();
    expect(await settingsOf(admin.familyId)).toEqual({ name: 'The Nguyens', currency: 'EUR', locale: 'de-DE', timezone: 'Europe/Berlin', dateFormat: '%d.%m.%Y', monthStartDay: 15 });

    // After a reload the form shows what was stored.
    await page.reload();
    expect(await page.getByLabel('Currency').inputValue()).toBe('EUR');
    expect(await page.getByLabel('Budget month starts on day').inputValue()).toBe('15');

    // A name the API refuses (only spaces is caught here; 201 characters there) is shown at its field.
    await page.getByLabel('Household name').evaluate((input: HTMLInputElement) => input.removeAttribute('maxlength'));
    await page.getByLabel('Household name').fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('alert').filter({ hasText: /^The household name must be/ }).waitFor();
    expect((await settingsOf(admin.familyId)).name).toBe('The Nguyens');
    await page.context().close();
  });

  it('a member is not offered the page, and is told so at its address', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const member = await app.newUser({ role: 'member', familyId: admin.familyId });
    const page = await app.newPage();
    await signInAs(page, member.email);
    await page.getByRole('link', { name: 'Categories' }).waitFor();
    expect(await page.getByRole('link', { name: 'Household' }).count()).toBe(0);
    await page.goto('/settings/household');
    await page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    await page.context().close();
  });

  it('fits 390 px', async () => {
    const admin = await app.newUser({ role: 'admin' });
    const context = await app.browser.newContext({ baseURL: app.baseUrl, viewport: PHONE });
    const page = await context.newPage();
    await signInAs(page, admin.email, '/settings/household');
    await page.getByLabel('Household name').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'household-settings-390');
    await context.close();
  });
});
