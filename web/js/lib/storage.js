// Small persistent facts kept in this browser's localStorage: the seat tokens
// of the games this device plays (keyed by game id, so /g/{id} finds them after
// the URL fragment is gone), the invite link of games it created, and user
// preferences (language, sound, confirm mode). Every access is wrapped because
// storage can be disabled or full; the app then still works for this visit.

const PREFIX = 'phantomgo.';
const GAMES_KEY = PREFIX + 'games';
const MAX_REMEMBERED_GAMES = 100;    // "My games" lists them all

function readJson(key, fallback) {
  try {
    const text = localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

function readGames() {
  const games = readJson(GAMES_KEY, {});
  return games && typeof games === 'object' ? games : {};
}

// {black?: token, white?: token} for a game, empty when this device has no seat.
export function loadSeats(gameId) {
  const entry = readGames()[gameId];
  return entry && entry.seats ? { ...entry.seats } : {};
}

function updateGame(gameId, change) {
  const games = readGames();
  const entry = games[gameId] ?? { seats: {}, savedAt: Date.now() };
  change(entry);
  games[gameId] = entry;
  const ids = Object.keys(games).sort((a, b) => games[b].savedAt - games[a].savedAt);
  for (const old of ids.slice(MAX_REMEMBERED_GAMES)) delete games[old];
  writeJson(GAMES_KEY, games);
}

export function saveSeat(gameId, color, token) {
  updateGame(gameId, (entry) => { entry.seats[color] = token; });
}

export function saveInviteLink(gameId, link) {
  updateGame(gameId, (entry) => { entry.invite = link; });
}

export function loadInviteLink(gameId) {
  return readGames()[gameId]?.invite ?? null;
}

export function saveGameSummary(gameId, summary) {
  updateGame(gameId, (entry) => { entry.summary = summary; });
}

export function loadGameSummary(gameId) {
  return readGames()[gameId]?.summary ?? null;
}

// The games this device holds a seat in, newest first.
export function listGames() {
  const games = readGames();
  return Object.entries(games)
    .map(([id, entry]) => ({ id, colors: Object.keys(entry.seats ?? {}), savedAt: entry.savedAt, summary: entry.summary ?? null }))
    .filter((game) => game.colors.length > 0)
    .sort((a, b) => b.savedAt - a.savedAt);
}

// Forgets a game on this device: its seats, invite and summary. The game
// itself goes on; only its seat links lead back to it.
export function forgetGame(gameId) {
  const games = readGames();
  delete games[gameId];
  writeJson(GAMES_KEY, games);
}

export function getPref(name, fallback) {
  return readJson(PREFIX + 'pref.' + name, fallback);
}

export function setPref(name, value) {
  writeJson(PREFIX + 'pref.' + name, value);
}
