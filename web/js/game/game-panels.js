// The text panels of the game page, each a pure function of a view: the turn
// banner, the counters (attempts, prisoners, stones on the board, passes),
// the table settings, the final result with its score breakdown, and the
// board in words for screen readers. Kept apart from game.js so page wiring
// and wording do not mix.

import { t, formatNumber } from '../lib/i18n.js';
import { opponentOf, isPlayer, isMyTurn, computerToMove, attemptsThisTurn } from './game-state.js';
import { describeTimeControl } from '../lib/time-format.js';

const colorName = (color) => t(`color.${color}`);

// Fills a <dl>; with tiles, each term and its value share a <div> (the
// compact counters under the board).
function fillList(dl, rows, { tiles = false } = {}) {
  dl.replaceChildren();
  for (const [label, value, key] of rows) {
    const term = document.createElement('dt');
    term.textContent = label;
    const detail = document.createElement('dd');
    detail.textContent = value;
    if (key) detail.dataset.stat = key;
    if (tiles) {
      const tile = document.createElement('div');
      tile.append(term, detail);
      dl.append(tile);
    } else {
      dl.append(term, detail);
    }
  }
}

// {text, kind} for the banner above the board. `hotseat` says the device is
// shared, so "your turn" is named by colour.
// Once the game is over it says who won and by how much, and to a player
// alone at the device whether they won or lost.
export function turnBanner(view, { hotseat }) {
  if (view.over) return overBanner(view, { hotseat });
  const color = colorName(view.to_move);
  // view.computer.busy: the server shared the computer's time among games.
  if (computerToMove(view)) return { text: t(view.computer?.busy ? 'turn.computerBusy' : 'turn.computer', { color }), kind: 'computer' };
  if (hotseat) return { text: t('turn.hotseat', { color }), kind: 'yours' };
  if (isMyTurn(view)) return { text: t('turn.yours', { color }), kind: 'yours' };
  if (isPlayer(view)) return { text: t('turn.opponent', { color }), kind: 'waiting' };
  return { text: t('turn.toPlay', { color }), kind: 'waiting' };
}

function overBanner(view, { hotseat }) {
  const result = resultText(view.result) || t('turn.over');
  const winner = view.result?.winner ?? null;
  if (hotseat || !isPlayer(view) || !winner) return { text: result, kind: 'over' };
  const won = winner === view.viewer;
  return { text: `${t(won ? 'result.youWon' : 'result.youLost')} ${result}`, kind: won ? 'won' : 'lost' };
}

export function roleTitle(view, { hotseat }) {
  if (hotseat) return t('role.hotseat', { color: colorName(view.viewer) });
  if (isPlayer(view) && view.over) return t('role.played', { color: colorName(view.viewer) });
  if (isPlayer(view)) return t('role.player', { color: colorName(view.viewer) });
  return t('role.spectator');
}

// The move in progress and its failed attempts are left out once the game
// is over: there is no move in progress then.
export function renderStats(dl, view) {
  const rows = view.over ? [] : [
    [t('stats.move'), formatNumber(view.turn), 'turn'],
    [t('stats.attempts'), formatNumber(attemptsThisTurn(view)), 'attempts'],
  ];
  if (isPlayer(view) && !view.over) {
    const opponent = opponentOf(view.viewer);
    rows.push([t('stats.opponentOnBoard', { color: colorName(opponent) }), formatNumber(view.on_board[opponent]), 'opponent-on-board']);
    rows.push([t('stats.ownOnBoard'), formatNumber(view.on_board[view.viewer]), 'own-on-board']);
  } else {
    for (const color of ['black', 'white']) {
      rows.push([t('stats.onBoard', { color: colorName(color) }), formatNumber(view.on_board[color]), `on-board-${color}`]);
    }
  }
  for (const color of ['black', 'white']) {
    rows.push([t('stats.prisoners', { color: colorName(color) }), formatNumber(view.prisoners[color]), `prisoners-${color}`]);
  }
  rows.push([t('stats.passes'), formatNumber(view.passes), 'passes']);
  fillList(dl, rows, { tiles: true });
}

function captureText(captureGo) {
  if (captureGo === true) return t('table.captureFirst');
  return t('table.captureTarget', { count: captureGo });
}

export function renderTableInfo(dl, game) {
  const settings = game.settings;
  const rows = [
    [t('table.mode'), t(`mode.${game.mode}`)],
    ...(game.level ? [[t('form.level'), t(`form.level${game.level[0].toUpperCase()}${game.level.slice(1)}`)]] : []),
    [t('table.size'), t('form.sizeValue', { size: settings.size })],
    [t('table.komi'), formatNumber(settings.komi)],
    [t('table.handicap'), settings.handicap > 0 ? t('form.handicapStones', { count: settings.handicap }) : t('form.handicapNone')],
    [t('table.rules'), t(`rulesets.${settings.rules}.name`)],
    [t('table.ko'), t(`ko.${settings.ko}`)],
    [t('table.clock'), describeTimeControl(game.time_control)],
  ];
  if (settings.capture_go) rows.push([t('table.captureGo'), captureText(settings.capture_go)]);
  if (settings.torus) rows.push([t('table.torus'), t('table.yes')]);
  rows.push([t('table.aid'), t(game.deduction_aid ? 'aid.on' : 'aid.off')]);
  fillList(dl, rows);
}

export function resultText(result) {
  if (!result) return '';
  const winner = result.winner ? colorName(result.winner) : null;
  const loser = result.winner ? colorName(opponentOf(result.winner)) : null;
  if (!winner) return t('result.draw');
  switch (result.reason) {
    case 'passes': {
      const margin = Math.abs((result.score?.black ?? 0) - (result.score?.white ?? 0));
      return t('result.byPoints', { winner, count: margin });
    }
    case 'capture': return t('result.byCapture', { winner });
    case 'resign': return t('result.byResign', { winner, loser });
    case 'timeout': return t('result.byTimeout', { winner, loser });
    case 'forfeit': return t('result.byForfeit', { winner, loser });
    default: return t('result.winner', { winner });
  }
}

// Fills the score table body; returns false when the game was not scored.
export function renderScore(tbody, result) {
  tbody.replaceChildren();
  if (!result || !result.breakdown) return false;
  const cell = (tag, text) => {
    const element = document.createElement(tag);
    element.textContent = text;
    return element;
  };
  const value = (color, field) => formatNumber(result.breakdown[color]?.[field] ?? 0);
  const rows = [
    [t('result.stones'), value('black', 'stones'), value('white', 'stones')],
    [t('result.territory'), value('black', 'territory'), value('white', 'territory')],
    [t('result.komi'), value('black', 'komi'), value('white', 'komi')],
    [t('result.total'), formatNumber(result.score.black), formatNumber(result.score.white)],
  ];
  for (const [label, black, white] of rows) {
    const row = document.createElement('tr');
    const head = cell('th', label);
    head.scope = 'row';
    row.append(head, cell('td', black), cell('td', white));
    tbody.append(row);
  }
  return true;
}

// The board in words (the board's description for screen readers): the
// viewer's stones, the public handicap stones, this turn's tried points and
// the ghost stones; everything once the game is over.
export function boardSummary(view, ghosts) {
  const list = (vertices) => (vertices.length ? vertices.join(', ') : t('summary.none'));
  if (view.over) {
    const black = t('summary.black', { list: list(view.stones.black ?? []) });
    return `${black} ${t('summary.white', { list: list(view.stones.white ?? []) })}`;
  }
  const parts = [];
  if (isPlayer(view)) parts.push(t('summary.own', { list: list(view.stones[view.viewer] ?? []) }));
  parts.push(t('summary.handicap', { list: list(view.handicap ?? []) }));
  if (isPlayer(view)) parts.push(t('summary.tried', { list: list(view.tried ?? []) }));
  if (ghosts.length) parts.push(t('summary.ghosts', { list: list(ghosts) }));
  return parts.join(' ');
}

// What the keyboard cursor is on, e.g. "E5: your stone".
export function pointDescription(view, ghosts, vertex) {
  let what = t('point.empty');
  if ((view.stones.black ?? []).includes(vertex)) what = t('point.black');
  else if ((view.stones.white ?? []).includes(vertex)) what = t('point.white');
  else if ((view.tried ?? []).includes(vertex)) what = t('point.tried');
  else if (ghosts.includes(vertex)) what = t('point.ghost');
  return `${vertex}: ${what}`;
}
