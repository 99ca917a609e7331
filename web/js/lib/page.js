// What every page shares: translations, the remembered language switcher,
// the footer with the server's version and commit (GET /api/health, asked
// once the page is ready), the notice line (#notice), a copy-to-clipboard
// helper for the share links and the wording of API errors.

import { initI18n, setLanguage, currentLanguage, onLanguageChange, t } from './i18n.js';
import { api } from './api.js';

let build = null;

function renderFooter() {
  const footer = document.getElementById('build-info');
  if (!footer) return;
  footer.textContent = build
    ? t('footer.build', { version: build.version, commit: build.commit })
    : t('footer.unknown');
}

async function loadBuild() {
  try {
    build = await api.health();
  } catch {
    build = null;
  }
  renderFooter();
}

function wireLanguageSwitch() {
  const select = document.getElementById('lang');
  if (!select) return;
  select.value = currentLanguage();
  select.addEventListener('change', () => setLanguage(select.value));
  onLanguageChange((lang) => {
    select.value = lang;
    renderFooter();
  });
}

export async function initPage() {
  await initI18n();
  wireLanguageSwitch();
  renderFooter();
}

let noticeTimer = null;

// Shows a message in the page's notice line (an alert for screen readers),
// replacing the one before; hides it after hideAfterMs when that is given.
export function showNotice(message, hideAfterMs = 0) {
  const box = document.getElementById('notice');
  box.textContent = message;
  box.hidden = false;
  clearTimeout(noticeTimer);
  if (hideAfterMs > 0) noticeTimer = setTimeout(() => { box.hidden = true; }, hideAfterMs);
}

// Removes the notice: the state it described is gone.
export function clearNotice() {
  const box = document.getElementById('notice');
  clearTimeout(noticeTimer);
  box.hidden = true;
  box.textContent = '';
}

// Copies an input's text; falls back to selecting it where the Clipboard API
// is unavailable (plain http on another host), so it can be copied by hand.
// Reports through statusElement, with copiedText once it is copied.
export async function copyFrom(input, statusElement, copiedText = t('share.copied')) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(input.value);
    copied = true;
  } catch {
    input.hidden = false;
    input.focus();
    input.select();
    copied = document.execCommand('copy');
  }
  if (statusElement) statusElement.textContent = copied ? copiedText : t('share.copyManually');
  return copied;
}

// A short human message for an API error, in the current language when we
// know the code, else the server's own words.
export function errorMessage(error) {
  const key = `error.${error.code}`;
  const known = t(key, { message: error.message || error.code });
  if (known !== key) return known;
  return t('error.server', { message: error.message || error.code });
}

let buildAsked = false;

// Marks the page as ready (content rendered) with the milliseconds since the
// navigation started: the end-to-end tests wait for it and check the time.
// Only then is the server's version asked for: the footer, at the bottom,
// is the least urgent part of any page.
export function markReady() {
  document.documentElement.dataset.ready = String(Math.round(performance.now()));
  if (buildAsked) return;
  buildAsked = true;
  loadBuild();
}
