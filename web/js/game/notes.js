// Private notes: the ghost stones a player puts where they believe the
// opponent's stones are. They live on the server for the seat (GET/PUT
// /notes), so they follow the player across reloads and devices and nobody
// else sees them. Changes are saved after a short pause, one request at a
// time, and a failed save is retried with the latest set; leaving the page
// sends what is pending with keepalive.

import { api } from '../lib/api.js';

const SAVE_DELAY_MS = 400;
const RETRY_DELAY_MS = 3000;

export class Notes {
  constructor(gameId, onChange) {
    this.gameId = gameId;
    this.onChange = onChange;
    this.token = null;
    this.ghosts = new Set();
    this.timer = null;
    this.saving = false;
    this.dirty = false;
    addEventListener('pagehide', () => this.saveOnExit());
  }

  // Switches to a seat's notes (hot-seat has two) and loads them.
  async load(token) {
    await this.flush();
    this.token = token;
    this.ghosts = new Set();
    this.dirty = false;
    clearTimeout(this.timer);
    if (!token) return;
    const answer = await api.notes(this.gameId, token);
    if (this.token !== token) return;
    this.ghosts = new Set(answer.ghosts ?? []);
    this.onChange();
  }

  list() {
    return [...this.ghosts];
  }

  toggle(vertex) {
    if (this.ghosts.has(vertex)) this.ghosts.delete(vertex);
    else this.ghosts.add(vertex);
    this.changed();
  }

  remove(vertex) {
    if (this.ghosts.delete(vertex)) this.changed();
  }

  clear() {
    if (this.ghosts.size === 0) return;
    this.ghosts.clear();
    this.changed();
  }

  changed() {
    this.dirty = true;
    this.onChange();
    this.schedule(SAVE_DELAY_MS);
  }

  schedule(delay) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), delay);
  }

  // Saves pending changes now (before the seat changes hands).
  async flush() {
    clearTimeout(this.timer);
    if (this.dirty && this.token) {
      const token = this.token;
      this.dirty = false;
      await api.saveNotes(this.gameId, token, this.list()).catch(() => {});
    }
  }

  // The page is going away: send what is pending in a request that
  // outlives it.
  saveOnExit() {
    if (!this.dirty || !this.token) return;
    clearTimeout(this.timer);
    this.dirty = false;
    api.saveNotes(this.gameId, this.token, this.list(), true).catch(() => {});
  }

  async save() {
    if (this.saving || !this.dirty || !this.token) return;
    this.saving = true;
    this.dirty = false;
    const token = this.token;
    try {
      await api.saveNotes(this.gameId, token, this.list());
    } catch {
      if (this.token === token) {
        this.dirty = true;
        this.schedule(RETRY_DELAY_MS);
      }
    } finally {
      this.saving = false;
    }
    if (this.dirty) this.schedule(SAVE_DELAY_MS);
  }
}
