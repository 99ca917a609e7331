// Table talk beside the board: the players' names, how many spectators
// watch, and the game's two chat rooms (docs/API.md, "Names and chat").
//
// Who reads what is the server's decision; the panel only shows the rooms
// the API hands it. Players read and write the players' room; spectators
// read and write the spectators' room and read the players' room once the
// game is over; the players read the spectators' room only after the end.
// Hot-seat and computer games have the players' room only, with a few
// canned phrases instead of a keyboard.
//
// The state is explicit (this.state) and render() draws all of it; every
// text a person wrote goes into the page with textContent. The panel is a
// <details> element, open beside the board on a wide screen and folded on
// a phone, with the count of unread messages in its summary.

import { t, onLanguageChange } from '../lib/i18n.js';
import { api } from '../lib/api.js';
import { errorMessage } from '../lib/page.js';
import { confirmAction } from '../lib/dialog.js';
import { getPref, setPref } from '../lib/storage.js';
import {
  MESSAGE_MAX, NAME_MAX, textProblem, problemText, rememberedName, rememberName, seatName, seatNamed,
} from '../lib/names.js';

const ROOMS = ['players', 'spectators'];
const PHRASES = ['hello', 'luck', 'nice', 'thanks', 'gg'];
const WIDE = '(min-width: 900px)';

function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

const emptyRoom = () => ({ messages: [], last: 0, readable: false, unread: 0 });

export class TablePanel {
  // root: an empty <details> element. seat(): {color, token} of the seat
  // this page acts for now (null for a spectator); hotseat: this device
  // holds both seats. waitForFeed: the page opens a live feed, whose socket
  // sends only what is said after its hello; the first read then waits for
  // feedStarted(), so one read, right after the hello, misses nothing.
  constructor(root, { gameId, seat, hotseat = false, waitForFeed = false }) {
    this.root = root;
    root.hidden = true;
    this.gameId = gameId;
    this.seat = seat;
    this.hotseat = hotseat;
    // 'waiting' (reads are held), 'held' (one is due) or 'started'.
    this.feed = waitForFeed ? 'waiting' : 'started';
    this.state = {
      view: null,
      rooms: { players: emptyRoom(), spectators: emptyRoom() },
      current: 'players',
      spectators: 0,
      hideSpectators: Boolean(getPref('hideSpectatorRoom', false)),
      muteSpectators: Boolean(getPref('muteSpectatorRoom', false)),
      sending: false,
      problem: '',
      nameStatus: '',
    };
    this.build();
    onLanguageChange(() => { this.translate(); this.render(); });
  }

  // ---- facts from outside -------------------------------------------------

  // Every new view of the game (names, the end, the spectator count).
  onView(view) {
    if (!('cancelled' in view)) return;     // a server without table talk: the panel stays hidden
    const before = this.state.view;
    this.state.view = view;
    if (typeof view.spectators === 'number') this.state.spectators = view.spectators;
    const readable = this.readableRooms();
    let opened = false;
    for (const room of ROOMS) {
      const was = this.state.rooms[room].readable;
      this.state.rooms[room].readable = readable.includes(room);
      if (!was && this.state.rooms[room].readable) opened = true;
    }
    if (!readable.includes(this.state.current)) this.state.current = readable[0] ?? 'players';
    if (!before || opened) this.refresh();
    this.render();
  }

  // A WebSocket message that is not a game update: a chat message of a
  // room this viewer reads, or the removal of one (the operator's, or its
  // author's after the end), which hides it at once.
  onFrame(message) {
    if (message.type === 'chat' && message.message) this.addMessages([message.message], true);
    if (message.type === 'chat_removed') this.removeMessage(message.room, message.n);
  }

  removeMessage(roomName, n) {
    const room = this.state.rooms[roomName];
    const message = room?.messages.find((m) => m.n === n);
    if (!message || message.removed) return;
    Object.assign(message, { removed: true, text: '', name: null });
    this.render();
  }

  // The live feed is up (or gave up on its socket for now): do the read
  // held until then.
  feedStarted() {
    const due = this.feed === 'held';
    this.feed = 'started';
    if (due) this.refresh();
  }

  // Fetches what the readable rooms hold past what the panel has (after a
  // reconnect, at the end of the game, on first load).
  async refresh() {
    if (this.feed !== 'started') {
      this.feed = 'held';
      return;
    }
    if (!this.state.view || this.state.view.cancelled) return;
    const after = { players: this.state.rooms.players.last, spectators: this.state.rooms.spectators.last };
    try {
      const answer = await api.chat(this.gameId, this.seat()?.token ?? null, after);
      for (const room of ROOMS) {
        if (!answer[room]) continue;
        this.addMessages(answer[room].messages ?? [], false);
      }
    } catch (error) {
      this.state.problem = errorMessage(error);
      this.render();
    }
  }

  // ---- derived facts ------------------------------------------------------

  isPlayer() {
    const viewer = this.state.view?.viewer;
    return viewer === 'black' || viewer === 'white';
  }

  spectatorRoomExists() {
    return this.state.view?.game.mode === 'online';
  }

  readableRooms() {
    const view = this.state.view;
    if (!view || view.cancelled) return [];
    const rooms = [];
    if (this.isPlayer() || view.over) rooms.push('players');
    if (this.spectatorRoomExists() && (!this.isPlayer() || view.over) && !(this.state.hideSpectators && !this.isPlayer())) {
      rooms.push('spectators');
    }
    return rooms;
  }

  writableRoom() {
    const view = this.state.view;
    if (!view || view.cancelled) return null;
    if (this.isPlayer()) return 'players';
    return this.spectatorRoomExists() && !this.state.hideSpectators ? 'spectators' : null;
  }

  canned() {
    return this.hotseat || this.state.view?.game.mode === 'computer';
  }

  // ---- messages -----------------------------------------------------------

  addMessages(messages, live) {
    let changed = false;
    for (const message of messages) {
      const room = this.state.rooms[message.room];
      if (!room || message.n <= room.last) continue;
      room.messages.push(message);
      room.last = message.n;
      changed = true;
      const seen = this.root.open && this.state.current === message.room;
      const muted = message.room === 'spectators' && this.isPlayer() && this.state.muteSpectators;
      if (live && !seen && !muted && !message.removed) room.unread += 1;
    }
    if (changed) this.render();
  }

  async send(text) {
    const room = this.writableRoom();
    const token = this.seat()?.token ?? null;
    const reason = textProblem(text, 'message');
    if (reason) {
      this.state.problem = problemText(reason, 'message');
      this.render();
      return;
    }
    if (!room || this.state.sending) return;
    this.state.sending = true;
    this.state.problem = '';
    this.render();
    try {
      const body = { text };
      if (!token && rememberedName()) body.name = rememberedName();
      const answer = await api.say(this.gameId, token, body);
      this.addMessages([answer.message], false);
      this.input.value = '';
    } catch (error) {
      this.state.problem = this.describeError(error, 'message');
    } finally {
      this.state.sending = false;
      this.render();
    }
  }

  describeError(error, kind) {
    if (error.code === 'bad_text' && error.reason) return problemText(error.reason, kind);
    if (error.code === 'rate_limited' && error.retryAfter) return `${errorMessage(error)} (${error.retryAfter} s)`;
    return errorMessage(error);
  }

  // Reports a message to the operator (its author is never told).
  async report(message) {
    if (!(await confirmAction(t('talk.reportConfirm'), t('talk.report')))) return;
    try {
      await api.report(this.gameId, this.seat()?.token ?? null, message.room, message.n);
      this.state.moderationNote = t('talk.reported');
    } catch (error) {
      this.state.moderationNote = errorMessage(error);
    }
    this.render();
  }

  // After the end, a seat erases its own name and messages (for good).
  async eraseOwnTalk() {
    const token = this.seat()?.token;
    if (!token || !(await confirmAction(t('talk.eraseConfirm'), t('talk.erase')))) return;
    try {
      await api.eraseTalk(this.gameId, token);
      this.state.moderationNote = t('talk.erased');
      this.state.erased = true;
    } catch (error) {
      this.state.moderationNote = errorMessage(error);
    }
    this.render();
  }

  async saveName() {
    const value = this.nameInput.value.trim();
    const reason = value ? textProblem(value, 'name') : null;
    if (reason) {
      this.state.nameStatus = problemText(reason, 'name');
      this.render();
      return;
    }
    rememberName(value);
    const seat = this.seat();
    if (seat?.token) {
      try {
        const answer = await api.rename(this.gameId, seat.token, value || null);
        const view = this.state.view;
        if (view?.seats?.[seat.color]) view.seats[seat.color].name = answer.names?.[seat.color] ?? null;
      } catch (error) {
        this.state.nameStatus = this.describeError(error, 'name');
        this.render();
        return;
      }
    }
    this.state.nameStatus = t('names.saved');
    this.render();
  }

  // ---- drawing ------------------------------------------------------------

  build() {
    const r = this.root;
    this.heading = element('h2');
    this.unread = element('span', { className: 'talk-unread' });
    this.summary = element('summary', {}, [this.heading, this.unread]);
    this.versus = element('p', { className: 'talk-versus' });
    this.watching = element('p', { className: 'hint talk-watching', role: 'status' });
    this.nameInput = element('input', { type: 'text', maxLength: NAME_MAX * 2, autocomplete: 'nickname', className: 'talk-name-input' });
    this.nameLabel = element('label', {}, []);
    this.nameSave = element('button', { type: 'button', className: 'talk-name-save' });
    this.nameNote = element('p', { className: 'hint talk-name-status', role: 'status' });
    this.nameRow = element('div', { className: 'talk-name' }, [this.nameLabel, this.nameInput, this.nameSave, this.nameNote]);
    this.tabs = element('div', { className: 'talk-tabs', role: 'tablist' });
    this.tabButtons = {};
    for (const room of ROOMS) {
      const button = element('button', { type: 'button', role: 'tab', className: 'talk-tab', dataset: { room } });
      button.addEventListener('click', () => { this.state.current = room; this.state.rooms[room].unread = 0; this.render(); });
      this.tabButtons[room] = button;
      this.tabs.append(button);
    }
    this.note = element('p', { className: 'hint talk-note' });
    this.log = element('ol', { className: 'talk-log', tabIndex: 0, 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.empty = element('p', { className: 'hint talk-empty' });
    this.cannedRow = element('div', { className: 'talk-canned', role: 'group' });
    this.phraseButtons = PHRASES.map((phrase) => {
      const button = element('button', { type: 'button', className: 'talk-phrase', dataset: { phrase } });
      button.addEventListener('click', () => this.send(t(`talk.phrases.${phrase}`)));
      return button;
    });
    this.cannedRow.append(...this.phraseButtons);
    this.input = element('input', { type: 'text', className: 'talk-input', maxLength: MESSAGE_MAX * 2, autocomplete: 'off' });
    this.sendButton = element('button', { type: 'submit', className: 'talk-send' });
    this.left = element('span', { className: 'hint talk-left', 'aria-live': 'polite' });
    this.problem = element('p', { className: 'talk-problem error', role: 'alert' });
    this.form = element('form', { className: 'talk-form' }, [this.input, this.sendButton, this.left]);
    this.moderation = element('p', { className: 'hint talk-moderation', role: 'status' });
    this.eraseButton = element('button', { type: 'button', className: 'talk-erase' });
    this.eraseButton.addEventListener('click', () => this.eraseOwnTalk());
    this.optionBox = element('input', { type: 'checkbox', className: 'talk-option' });
    this.optionText = element('span');
    this.option = element('label', { className: 'choice talk-option-row' }, [this.optionBox, this.optionText]);
    r.classList.add('talk');
    r.append(this.summary, this.versus, this.watching, this.nameRow, this.tabs, this.note, this.log, this.empty,
      this.cannedRow, this.form, this.problem, this.moderation, this.option, this.eraseButton);
    r.open = matchMedia(WIDE).matches;

    const inputId = `talk-input-${this.gameId}`;
    this.input.id = inputId;
    this.nameInput.id = `talk-name-${this.gameId}`;
    this.nameLabel.htmlFor = this.nameInput.id;
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.send(this.input.value);
    });
    this.input.addEventListener('input', () => this.renderLeft());
    this.nameSave.addEventListener('click', () => this.saveName());
    this.nameInput.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); this.saveName(); }
    });
    this.optionBox.addEventListener('change', () => {
      if (this.isPlayer()) {
        this.state.muteSpectators = this.optionBox.checked;
        setPref('muteSpectatorRoom', this.state.muteSpectators);
        if (this.state.muteSpectators) this.state.rooms.spectators.unread = 0;
      } else {
        this.state.hideSpectators = this.optionBox.checked;
        setPref('hideSpectatorRoom', this.state.hideSpectators);
        if (this.state.view) this.onView(this.state.view);
      }
      this.render();
    });
    r.addEventListener('toggle', () => {
      if (r.open) this.state.rooms[this.state.current].unread = 0;
      this.render();
    });
    this.translate();
  }

  translate() {
    this.heading.textContent = t('talk.heading');
    this.tabs.setAttribute('aria-label', t('talk.roomsLabel'));
    this.nameSave.textContent = t('names.save');
    this.input.placeholder = t('talk.placeholder');
    this.input.setAttribute('aria-label', t('talk.messageLabel'));
    this.sendButton.textContent = t('talk.send');
    this.cannedRow.setAttribute('aria-label', t('talk.canned'));
    this.phraseButtons.forEach((button, i) => { button.textContent = t(`talk.phrases.${PHRASES[i]}`); });
    this.empty.textContent = t('talk.empty');
  }

  render() {
    const view = this.state.view;
    this.root.hidden = !view || view.cancelled;
    if (!view) return;
    this.renderVersus(view);
    this.renderWatching();
    this.renderName();
    this.renderTabs();
    this.renderLog();
    this.renderForm();
    this.renderOption();
    this.moderation.textContent = this.state.moderationNote ?? '';
    this.moderation.hidden = !this.moderation.textContent;
    this.eraseButton.textContent = t('talk.erase');
    this.eraseButton.hidden = !(this.isPlayer() && view.over && !this.hotseat && !this.state.erased);
    const unread = ROOMS.reduce((sum, room) => sum + this.state.rooms[room].unread, 0);
    this.unread.textContent = unread ? t('talk.unread', { count: unread }) : '';
  }

  renderVersus(view) {
    const label = (color) => (seatNamed(view, color)
      ? t('names.seat', { name: seatName(view, color), color: t(`color.${color}`) })
      : t(`color.${color}`));
    this.versus.textContent = t('names.versus', { black: label('black'), white: label('white') });
  }

  renderWatching() {
    this.watching.hidden = this.state.view?.game.mode !== 'online';
    this.watching.textContent = t('talk.watching', { count: this.state.spectators });
  }

  renderName() {
    const view = this.state.view;
    const player = this.isPlayer();
    this.nameRow.hidden = !player && !this.spectatorRoomExists();
    this.nameLabel.textContent = t('names.label');
    if (document.activeElement !== this.nameInput) {
      const own = player ? view.seats?.[view.viewer]?.name : null;
      this.nameInput.value = own ?? (player ? '' : rememberedName());
    }
    this.nameNote.textContent = this.state.nameStatus || (player ? t('names.hint') : t('names.spectatorHint'));
  }

  renderTabs() {
    const readable = this.readableRooms();
    this.tabs.hidden = readable.length < 2;
    for (const room of ROOMS) {
      const button = this.tabButtons[room];
      const unread = this.state.rooms[room].unread;
      button.hidden = !readable.includes(room);
      button.textContent = unread ? `${t(`talk.${room}`)} (${unread})` : t(`talk.${room}`);
      button.setAttribute('aria-selected', String(room === this.state.current));
    }
  }

  noteText() {
    const view = this.state.view;
    const room = this.state.current;
    if (!this.readableRooms().length) return t('talk.playersAfterEnd');
    if (room === 'spectators' && !view.over) return t('talk.spectatorsPrivate');
    if (room === 'spectators' && this.isPlayer()) return t('talk.spectatorsAfterEnd');
    if (room === 'players' && !this.isPlayer() && !view.over) return t('talk.playersAfterEnd');
    return '';
  }

  renderLog() {
    const view = this.state.view;
    const room = this.state.rooms[this.state.current];
    const visible = this.readableRooms().includes(this.state.current);
    const messages = visible ? room.messages.filter((m) => !m.removed) : [];
    if (visible && this.root.open) room.unread = 0;
    this.note.textContent = this.noteText();
    this.note.hidden = this.note.textContent === '';
    const stick = this.log.scrollTop + this.log.clientHeight >= this.log.scrollHeight - 8;
    this.log.replaceChildren(...messages.map((message) => this.messageItem(message, view)));
    this.log.hidden = !visible;
    this.empty.hidden = !visible || messages.length > 0;
    if (stick) this.log.scrollTop = this.log.scrollHeight;
  }

  messageItem(message, view) {
    const who = message.from === 'spectator'
      ? message.name || t('talk.anonymous')
      : t('names.seat', { name: message.name || seatName(view, message.from), color: t(`color.${message.from}`) });
    const time = new Date(message.at_ms);
    const stamp = element('time', { dateTime: time.toISOString(), className: 'talk-time' });
    stamp.textContent = time.toLocaleTimeString(document.documentElement.lang, { hour: '2-digit', minute: '2-digit' });
    const author = element('span', { className: 'talk-who' });
    author.textContent = who;
    const text = element('span', { className: 'talk-text' });
    text.textContent = message.text;
    const parts = [author, ' ', stamp, ' ', text];
    // Anyone who reads a message may report it; a seat not its own (a
    // spectator's own cannot be told apart: spectators are anonymous).
    if (!this.hotseat && !(this.isPlayer() && message.from === view?.viewer)) {
      const report = element('button', { type: 'button', className: 'talk-report link', textContent: t('talk.report') });
      report.setAttribute('aria-label', t('talk.reportLabel', { who }));
      report.addEventListener('click', () => this.report(message));
      parts.push(' ', report);
    }
    return element('li', { className: 'talk-message', dataset: { from: message.from, room: message.room, n: message.n } }, parts);
  }

  renderForm() {
    const writable = this.writableRoom();
    const showForm = Boolean(writable) && writable === this.state.current && !this.canned();
    this.form.hidden = !showForm;
    this.cannedRow.hidden = !(this.canned() && writable === 'players');
    this.input.disabled = this.state.sending;
    this.sendButton.disabled = this.state.sending;
    this.phraseButtons.forEach((button) => { button.disabled = this.state.sending; });
    this.problem.textContent = this.state.problem;
    this.problem.hidden = !this.state.problem;
    this.renderLeft();
  }

  renderLeft() {
    const left = MESSAGE_MAX - [...this.input.value.trim()].length;
    this.left.textContent = left < 50 ? t('talk.left', { count: Math.max(0, left) }) : '';
  }

  renderOption() {
    const view = this.state.view;
    const player = this.isPlayer();
    const show = this.spectatorRoomExists() && (player ? view.over : true);
    this.option.hidden = !show;
    this.optionBox.checked = player ? this.state.muteSpectators : this.state.hideSpectators;
    this.optionText.textContent = player ? t('talk.muteSpectators') : t('talk.hideSpectators');
  }
}
