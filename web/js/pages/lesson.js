// The interactive lesson (/lesson): five steps, each a position on a 5x5
// board that the server sets up, where the learner plays Black and a
// scripted White answers. Every answer is the real referee's: the page
// sends the step's moves so far to POST /api/v1/lesson/{step} and draws the
// view it gets back (Black's, through the visibility filter), so it never
// holds a hidden stone and judges nothing itself. The step is kept in the
// address (#see, #illegal, ...) so a reload or a shared link stays there.
//
// The referee's answer to the latest action is written in one live region
// right above the board (read by screen readers), in words meant for a
// newcomer; the step's announcements are also listed, newest first.

import { initPage, markReady, errorMessage } from '../lib/page.js';
import { t, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { Board } from '../game/board.js';
import { boardSummary, pointDescription } from '../game/game-panels.js';
import { saveSeat, saveGameSummary } from '../lib/storage.js';

const STEPS = ['see', 'illegal', 'once', 'capture', 'end'];
const FINALE = STEPS.length;
const FIRST_GAME = {
  mode: 'computer', color: 'black', level: 'easy', time_control: { type: 'none' },
  settings: { size: 9, komi: 7.5, handicap: 0, ko: 'simple', rules: 'olympiad', torus: false, capture_go: false },
};

const $ = (id) => document.getElementById(id);

const lesson = {
  index: 0,
  moves: [],
  answer: null, // the server's latest answer for this step
  sayings: [], // the referee's words for the latest action: [{key, params, kind}]
  takeaway: false, // that action reached the step's goal: say what it taught
  log: [], // the step's announcements, oldest first: [{key, params}]
  shownSeq: 0, // events up to this seq are told
  done: new Set(), // steps whose goal was reached
  busy: false,
  generation: 0, // bumped at each start of a step: older answers are dropped
};

let board;

function stepName() {
  return STEPS[lesson.index];
}

// ---- the referee's words ------------------------------------------------------

// What one event of the step means to the learner (Black), as an i18n key.
function sayingOf(event) {
  const points = (event.captured ?? []).join(' ');
  const mine = event.color === 'black';
  switch (event.type) {
    case 'move':
      if (mine) return points ? { key: 'lesson.say.youCaptured', params: { vertex: event.vertex, points }, kind: 'good' } : { key: 'lesson.say.youPlayed', params: { vertex: event.vertex } };
      return points ? { key: 'lesson.say.whiteCaptured', params: { points }, kind: 'bad' } : { key: 'lesson.say.whitePlayed', params: {} };
    case 'illegal':
      return mine ? { key: 'lesson.say.illegal', params: { vertex: event.vertex }, kind: 'bad' } : { key: 'lesson.say.whiteIllegal', params: {} };
    case 'pass':
      return { key: mine ? 'lesson.say.youPassed' : 'lesson.say.whitePassed', params: {} };
    default:
      return { key: 'lesson.say.other', params: {} };
  }
}

function overSaying(view) {
  const result = view.result;
  const score = { black: result.score?.black ?? 0, white: result.score?.white ?? 0 };
  return { key: `lesson.say.over.${result.winner ?? 'jigo'}`, params: score, kind: 'end' };
}

// The sayings of the answer to one action: new events, a refusal, the end,
// and the step's lesson the first time its goal is reached.
function sayingsOf(answer, vertex) {
  const sayings = [];
  if (answer.refused) {
    sayings.push({ key: `lesson.refused.${answer.refused}`, params: { vertex }, kind: 'bad' });
  }
  const fresh = answer.view.events.filter((event) => event.seq >= answer.first_seq && event.seq > lesson.shownSeq);
  for (const event of fresh) sayings.push(sayingOf(event));
  if (answer.view.over) sayings.push(overSaying(answer.view));
  return { sayings, fresh };
}

function text(saying) {
  return t(saying.key, saying.params);
}

// ---- drawing ------------------------------------------------------------------

// Points emptied by the latest announcements: the learner's captures (green
// squares) and their own lost stones (red rings), as on the game page.
function recentCaptures(events) {
  const taken = [];
  const lost = [];
  for (const event of events) {
    if (event.color === 'black') taken.push(...(event.captured ?? []));
    else lost.push(...(event.captured ?? []));
  }
  return { taken, lost };
}

function boardModel(view, recent) {
  const over = view.over;
  return {
    viewer: 'black',
    stones: view.stones,
    handicap: [],
    last: view.last_own,
    tried: over ? [] : view.tried,
    rejected: over ? [] : (view.rejected ?? []).map((entry) => entry.vertex),
    captured: over ? [] : recent.lost,
    taken: over ? [] : recent.taken,
    territory: over ? view.result.territory ?? null : null,
    // Every White stone of the final board was unseen until the reveal.
    unseen: over ? { color: 'white', vertices: view.stones.white } : null,
  };
}

function renderProgress() {
  const list = $('lesson-progress');
  list.replaceChildren();
  for (let i = 0; i <= FINALE; i++) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'lesson-dot';
    const name = i === FINALE ? t('lesson.finale.short') : t(`lesson.steps.${STEPS[i]}.title`);
    const done = i < FINALE && lesson.done.has(STEPS[i]);
    button.textContent = i === FINALE ? '★' : String(i + 1);
    button.dataset.done = String(done);
    button.setAttribute('aria-label', t(done ? 'lesson.dotDone' : 'lesson.dot', { n: i + 1, name }));
    if (i === lesson.index) button.setAttribute('aria-current', 'step');
    button.addEventListener('click', () => go(i));
    item.append(button);
    list.append(item);
  }
}

function renderStep() {
  const finale = lesson.index === FINALE;
  $('lesson-area').hidden = finale;
  $('finale').hidden = !finale;
  renderProgress();
  if (finale) return;
  const step = stepName();
  const done = lesson.done.has(step);
  $('step-count').textContent = t('lesson.count', { n: lesson.index + 1, total: STEPS.length });
  $('step-title').textContent = t(`lesson.steps.${step}.title`);
  $('step-text').textContent = t(`lesson.steps.${step}.text`);
  $('step-goal').textContent = `${done ? '✓ ' : ''}${t(`lesson.steps.${step}.goal`)}`;
  $('step-goal').dataset.done = String(done);
  $('back').disabled = lesson.index === 0;
  $('next').textContent = t(lesson.index === STEPS.length - 1 ? 'lesson.finish' : 'lesson.next');
  $('next').classList.toggle('primary', done);
  renderAnswer();
  renderBoard();
}

function renderAnswer() {
  const box = $('lesson-answer');
  const sayings = lesson.sayings.length ? lesson.sayings : [{ key: 'lesson.say.waiting', params: {} }];
  const words = sayings.map(text).join(' ');
  if (box.textContent !== words) box.textContent = words;
  // The action that reached the goal also says what it taught.
  const takeaway = $('lesson-takeaway');
  takeaway.hidden = !lesson.takeaway;
  takeaway.textContent = lesson.takeaway ? t(`lesson.steps.${stepName()}.done`) : '';
  const kinds = sayings.map((saying) => saying.kind).filter(Boolean);
  if (lesson.takeaway) kinds.push('good');
  box.parentElement.dataset.kind = kinds.includes('end') ? 'end' : kinds.includes('good') ? 'good' : kinds.includes('bad') ? 'bad' : 'info';
  const log = $('lesson-log');
  log.replaceChildren(...lesson.log.slice().reverse().map((saying) => {
    const item = document.createElement('li');
    item.textContent = text(saying);
    return item;
  }));
  $('log-title').parentElement.hidden = lesson.log.length === 0;
}

function renderBoard() {
  const answer = lesson.answer;
  if (!answer) return;
  const view = answer.view;
  const recent = recentCaptures(view.events.filter((event) => event.seq > lesson.previousSeq));
  board.render(boardModel(view, recent));
  board.setInteractive(!view.over && !lesson.busy);
  $('pass').disabled = view.over || lesson.busy;
  $('board-summary').textContent = boardSummary(view, []);
  if (document.activeElement === $('board')) describeCursor(board.cursorVertex());
}

function describeCursor(vertex) {
  if (!lesson.answer) return;
  const words = pointDescription(lesson.answer.view, [], vertex);
  if ($('cursor-status').textContent !== words) $('cursor-status').textContent = words;
}

// ---- talking to the referee -----------------------------------------------------

async function ask(moves) {
  return api.lesson(stepName(), moves);
}

function accept(answer, vertex) {
  const { sayings, fresh } = sayingsOf(answer, vertex);
  const step = stepName();
  lesson.takeaway = answer.done && !lesson.done.has(step);
  if (answer.done) lesson.done.add(step);
  lesson.previousSeq = lesson.shownSeq;
  if (fresh.length) lesson.shownSeq = fresh.at(-1).seq;
  lesson.sayings = sayings;
  lesson.log.push(...sayings.filter((saying) => saying.key.startsWith('lesson.refused.')), ...fresh.map(sayingOf));
  lesson.answer = answer;
  const captured = fresh.flatMap((event) => event.captured ?? []);
  renderStep();
  if (captured.length) board.flash(captured);
}

async function act(action) {
  if (lesson.busy || !lesson.answer || lesson.answer.view.over) return;
  lesson.busy = true;
  renderBoard();
  const generation = lesson.generation;
  try {
    const answer = await ask([...lesson.moves, action]);
    if (lesson.generation !== generation) return; // the step was left or restarted meanwhile
    if (!answer.refused) lesson.moves.push(action);
    accept(answer, action);
  } catch (error) {
    if (lesson.generation !== generation) return;
    lesson.sayings = [{ key: 'lesson.failed', params: { message: errorMessage(error) }, kind: 'bad' }];
    renderAnswer();
  } finally {
    lesson.busy = false;
    renderBoard();
  }
}

async function startStep() {
  const generation = ++lesson.generation;
  lesson.moves = [];
  lesson.answer = null;
  lesson.sayings = [];
  lesson.takeaway = false;
  lesson.log = [];
  lesson.shownSeq = 0;
  lesson.previousSeq = 0;
  board.clear();
  board.setInteractive(false);
  $('cursor-status').textContent = '';
  renderStep();
  try {
    const answer = await ask([]);
    if (lesson.generation !== generation) return;
    lesson.answer = answer;
    lesson.shownSeq = answer.first_seq - 1;
    lesson.previousSeq = lesson.shownSeq;
    renderStep();
  } catch (error) {
    if (lesson.generation !== generation) return;
    lesson.sayings = [{ key: 'lesson.failed', params: { message: errorMessage(error) }, kind: 'bad' }];
    renderAnswer();
  }
}

// ---- moving between steps ---------------------------------------------------------

function indexOfHash() {
  const name = location.hash.slice(1);
  if (name === 'ready') return FINALE;
  const index = STEPS.indexOf(name);
  return index < 0 ? 0 : index;
}

async function go(index, { focus = true } = {}) {
  lesson.index = Math.max(0, Math.min(FINALE, index));
  const hash = `#${lesson.index === FINALE ? 'ready' : stepName()}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  if (lesson.index === FINALE) {
    renderStep();
    if (focus) $('finale-title').focus();
    return;
  }
  const started = startStep();
  if (focus) $('step-title').focus();
  await started;
}

async function playComputer() {
  const button = $('play-computer');
  button.disabled = true;
  $('play-error').hidden = true;
  try {
    const created = await api.createGame(FIRST_GAME);
    for (const seat of created.seats ?? []) saveSeat(created.game.id, seat.color, seat.token);
    saveGameSummary(created.game.id, { mode: 'computer', size: 9 });
    location.assign(created.links?.play ?? `/g/${created.game.id}`);
  } catch (error) {
    $('play-error').textContent = errorMessage(error);
    $('play-error').hidden = false;
    button.disabled = false;
  }
}

function wire() {
  board = new Board($('board'), {
    onPoint: (vertex) => act(vertex),
    onCursor: describeCursor,
  });
  board.configure({ size: 5, torus: false });
  $('board').addEventListener('focus', () => describeCursor(board.cursorVertex()));
  $('board').addEventListener('keydown', (event) => {
    if (event.code === 'KeyP' && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      act('pass');
    }
  });
  $('pass').addEventListener('click', () => act('pass'));
  $('restart').addEventListener('click', () => startStep().then(() => $('board').focus()));
  $('back').addEventListener('click', () => go(lesson.index - 1));
  $('next').addEventListener('click', () => go(lesson.index + 1));
  $('finale-back').addEventListener('click', () => go(STEPS.length - 1));
  $('play-computer').addEventListener('click', playComputer);
  addEventListener('hashchange', () => {
    if (indexOfHash() !== lesson.index) go(indexOfHash());
  });
  onLanguageChange(() => renderStep());
}

initPage().then(async () => {
  wire();
  await go(indexOfHash(), { focus: false });
  markReady();
});
