// The exported site in Debian's chromium, from file://: node site.test.js SITE_DIR ARTIFACT_DIR
// Pastes a message into the search box and checks the first result, follows it with the
// keyboard, searches from an entry page's header, checks phone width, dark mode and print, that
// nothing is requested from the network, and saves screenshots of an entry page.
'use strict';
const path = require('path');
const { pathToFileURL } = require('url');
const { chromium } = require('playwright-core');

const [siteDir, artifacts] = process.argv.slice(2);
const MESSAGE = 'CUDA error: an illegal memory access was encountered';
const EXPECTED = 'e/illegal-memory-access.html';
let passed = 0, failed = 0;
function check(ok, what, detail) {
  if (ok) passed++;
  else failed++;
  console.log((ok ? 'ok    ' : 'FAIL  ') + what + (ok || detail === undefined ? '' : ': ' + detail));
}

(async () => {
  const started = Date.now();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // Chromium's sandbox cannot start as root (CI runs as root).
    args: process.getuid && process.getuid() === 0 ? ['--no-sandbox'] : [],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const problems = [], remote = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('request', (r) => { if (!r.url().startsWith('file:')) remote.push(r.url()); });

  const home = pathToFileURL(path.join(siteDir, 'index.html')).href;
  await page.goto(home);
  // A paste: the text arrives in one input event, as from the clipboard.
  await page.focus('#q');
  await page.keyboard.insertText(MESSAGE);
  await page.waitForSelector('#results li a.title', { timeout: 5000 });
  const first = await page.$eval('#results li a.title', (a) => a.getAttribute('href'));
  check(first === EXPECTED, `pasting '${MESSAGE}' gives ${EXPECTED} first`, first);
  const status = await page.textContent('#search-status');
  check(/explains? this message/.test(status), 'the status line says the match is confident', status);

  // Keyboard only: Tab to the button, Enter, Tab to the first result, Enter.
  await page.keyboard.press('Tab');
  check(await page.evaluate(() => document.activeElement.tagName) === 'BUTTON', 'Tab moves from the box to the button');
  await page.keyboard.press('Enter');
  const results = path.join(artifacts, 'search-results.png');
  await page.screenshot({ path: results });
  console.log('screenshot: ' + results);
  await page.keyboard.press('Tab');
  const focused = await page.evaluate(() => document.activeElement.getAttribute('href'));
  check(focused === EXPECTED, 'Tab reaches the first result', focused);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
  check(page.url().endsWith(EXPECTED), 'Enter on the result opens the entry page', page.url());
  const h1 = await page.textContent('h1');
  check(h1 === MESSAGE, 'the entry page has the entry as its one h1', h1);
  check(await page.isVisible('.first-actions li'), 'the first actions are on screen');

  const shot = path.join(artifacts, 'entry-page.png');
  await page.screenshot({ path: shot, fullPage: true });
  console.log('screenshot: ' + shot);

  // Search from an entry page's header: the form goes to the home page with ?q=.
  await page.fill('#site-q', 'CUDA error: misaligned address');
  await Promise.all([page.waitForNavigation(), page.press('#site-q', 'Enter')]);
  await page.waitForSelector('#results li a.title', { timeout: 5000 });
  const fromHeader = await page.$eval('#results li a.title', (a) => a.getAttribute('href'));
  check(fromHeader === 'e/misaligned-address.html', 'the header search lands on ranked results', fromHeader);

  // A phone: nothing wider than the screen.
  const phone = await browser.newPage({ viewport: { width: 375, height: 740 }, deviceScaleFactor: 2 });
  phone.on('request', (r) => { if (!r.url().startsWith('file:')) remote.push(r.url()); });
  await phone.goto(pathToFileURL(path.join(siteDir, EXPECTED)).href);
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check(overflow <= 0, 'an entry page fits a 375 px wide phone', overflow + ' px too wide');
  const phoneShot = path.join(artifacts, 'entry-page-phone.png');
  await phone.screenshot({ path: phoneShot });
  console.log('screenshot: ' + phoneShot);

  // The system's dark mode, and print.
  await phone.emulateMedia({ colorScheme: 'dark' });
  const dark = await phone.evaluate(() => getComputedStyle(document.body).backgroundColor);
  check(dark === 'rgb(21, 23, 26)', 'dark mode gives the dark background', dark);
  await phone.emulateMedia({ media: 'print', colorScheme: 'light' });
  check(!(await phone.isVisible('nav')), 'print hides the navigation');

  check(remote.length === 0, 'nothing was requested from the network', remote.join(' '));
  check(problems.length === 0, 'no script errors', problems.join(' | '));
  await browser.close();
  console.log(`browser test took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`browser: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log('FAIL  ' + e.stack);
  process.exit(1);
});
