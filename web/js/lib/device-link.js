// "Take my games to another device": one link that carries this browser's
// seat links to another browser. The seats travel in the URL's fragment
// (#games=...), which browsers never send to a server, so the server never
// sees the tokens; opening the link on the other device merges them into
// its own storage (storage.js) and drops the fragment from the address bar
// and history at once. Anyone holding the link plays those seats, as with
// each seat link: the page says so beside it.

import { listGames, loadSeats, saveSeat } from './storage.js';

const GAME_ID = /^[a-z0-9]{1,20}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function toBase64Url(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

// The link of every seat this browser holds, or null when it holds none.
export function deviceLink() {
  const games = {};
  for (const game of listGames()) games[game.id] = loadSeats(game.id);
  if (Object.keys(games).length === 0) return null;
  return `${location.origin}/my-games#games=${toBase64Url(JSON.stringify(games))}`;
}

// Merges the seats of a #games= fragment into this browser's storage and
// removes the fragment; the number of seats taken in (0 when none, or the
// fragment is not one of ours).
export function importDeviceLink() {
  const match = /(?:^#|&)games=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!match) return 0;
  history.replaceState(null, '', location.pathname + location.search);
  let games;
  try {
    games = JSON.parse(fromBase64Url(match[1]));
  } catch {
    return 0;
  }
  let count = 0;
  if (!games || typeof games !== 'object') return 0;
  for (const [id, seats] of Object.entries(games)) {
    if (!GAME_ID.test(id) || !seats || typeof seats !== 'object') continue;
    for (const color of ['black', 'white']) {
      if (typeof seats[color] === 'string' && TOKEN.test(seats[color])) {
        saveSeat(id, color, seats[color]);
        count++;
      }
    }
  }
  return count;
}
