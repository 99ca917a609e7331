// The hot-seat curtain. After every legal move or pass it covers the game at
// once and names only the colour to play ("White to play: pass the device,
// then tap to show your board"); an illegal attempt does not raise it. It
// shows nothing of either board, and raising it first empties what the page
// drew (onRaise), so nothing stays in the DOM behind it. Lowering it asks
// load(color) for that seat's view and uncovers the game only once the view
// has arrived; onShown() then draws it.

import { t } from '../lib/i18n.js';

export class Curtain {
  constructor({ curtain, text, button, gameArea }, { onRaise, load, onShown }) {
    this.el = { curtain, text, button, gameArea };
    this.onRaise = onRaise;
    this.load = load;
    this.onShown = onShown;
    this.up = false;
    this.color = null;
    button.addEventListener('click', () => this.lower());
  }

  raise(color) {
    this.up = true;
    this.color = color;
    this.onRaise();
    this.el.gameArea.hidden = true;
    this.retranslate();
    this.el.curtain.hidden = false;
    this.el.button.focus();
  }

  async lower() {
    if (!this.up || !(await this.load(this.color))) return;
    this.uncover();
    this.onShown();
  }

  // Takes the curtain away without a handover (the game ended).
  uncover() {
    this.up = false;
    this.el.curtain.hidden = true;
    this.el.gameArea.hidden = false;
  }

  retranslate() {
    if (this.color) this.el.text.textContent = t('curtain.text', { color: t(`color.${this.color}`) });
  }
}
