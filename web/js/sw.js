// The service worker, served at /sw.js (scope: the whole site). It shows
// the push notices the server sends a seat whose page is closed (docs/API.md,
// "Push notifications") and opens the game when one is clicked. A notice is
// a small JSON object the server made from the seat's own view: the game
// id, its kind, the turn, the seat's colour, the opponent's name, the
// result; the text is written here, in the language the seat subscribed
// with, from the site's own translations (web/i18n).

const LANGUAGES = ['en', 'ru', 'ko'];
const dictionaries = new Map();

// The site's translations in lang, kept once loaded; a load that fails (the
// server restarting, the network away) is not kept, so the next notice
// tries again rather than falling back to English for the worker's life.
async function dictionary(lang) {
  if (dictionaries.has(lang)) return dictionaries.get(lang);
  try {
    const response = await fetch(`/web/i18n/${lang}.json`);
    if (!response.ok) return {};
    const loaded = await response.json();
    dictionaries.set(lang, loaded);
    return loaded;
  } catch {
    return {};
  }
}

function lookup(dict, key) {
  return key.split('.').reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), dict);
}

// The text of key with {name} parameters, in lang, else in English.
async function text(lang, key, params = {}) {
  let template = lookup(await dictionary(lang), key);
  if (typeof template !== 'string') template = lookup(await dictionary('en'), key);
  if (typeof template !== 'string') return key;
  return template.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ''));
}

function points(lang, value) {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(value);
}

// "You won by 3.5 points", "You lost", "The game ended in a draw".
async function resultText(lang, notice) {
  const result = notice.result ?? {};
  if (!result.winner) return text(lang, 'push.draw');
  const won = result.winner === notice.you;
  const score = result.score;
  if (score && typeof score.black === 'number' && typeof score.white === 'number') {
    const margin = points(lang, Math.abs(score.black - score.white));
    return text(lang, won ? 'push.wonBy' : 'push.lostBy', { points: margin });
  }
  return text(lang, won ? 'push.won' : 'push.lost');
}

async function bodyOf(lang, notice) {
  switch (notice.kind) {
    case 'opponent_joined': return text(lang, 'push.joined');
    case 'your_turn':
      return notice.opponent ? text(lang, 'push.turnNamed', { name: notice.opponent }) : text(lang, 'push.turn');
    case 'time_low': return text(lang, 'push.timeLow');
    case 'game_over': return resultText(lang, notice);
    case 'rematch_offer': return text(lang, 'push.rematch');
    default: return text(lang, 'notify.body');
  }
}

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('push', (event) => {
  event.waitUntil((async () => {
    let notice = {};
    try {
      notice = event.data ? event.data.json() : {};
    } catch {
      notice = {};
    }
    const lang = LANGUAGES.includes(notice.lang) ? notice.lang : 'en';
    const game = typeof notice.game === 'string' && /^[a-z0-9]{1,20}$/.test(notice.game) ? notice.game : null;
    await self.registration.showNotification(await text(lang, 'notify.title'), {
      body: await bodyOf(lang, notice),
      icon: '/static/favicon.svg',
      tag: game ? `phantomgo-${game}` : 'phantomgo',
      lang,
      data: { game },
    });
  })());
});

// A click opens the game's page (which finds this browser's seat link in
// its own storage), or brings forward a tab that shows it already.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const game = event.notification.data?.game;
  const path = game ? `/g/${game}` : '/my-games';
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const client of windows) {
      if (new URL(client.url).pathname === path && 'focus' in client) return client.focus();
    }
    return self.clients.openWindow(path);
  })());
});
