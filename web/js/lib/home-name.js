// The name field of the home page's new-game form: the player's display
// name, optional, remembered by this browser (names.js) and sent with the
// new game for the seat its creator takes. Hot-seat games are created
// without one (each seat is named in the game). The field is put where the
// home page says (before its quick-start buttons) by this module, so the
// page's own layout stays the home page's business.

import { t, onLanguageChange } from './i18n.js';
import { attachNameInput } from './names.js';

export function addNameField(parent, before = parent.firstChild) {
  const field = document.createElement('div');
  field.className = 'field name-field';
  const label = document.createElement('label');
  label.htmlFor = 'player-name';
  const input = document.createElement('input');
  input.id = 'player-name';
  input.name = 'name';
  input.type = 'text';
  input.autocomplete = 'nickname';
  const hint = document.createElement('p');
  hint.className = 'hint';
  hint.id = 'player-name-hint';
  const problem = document.createElement('p');
  problem.className = 'error';
  problem.setAttribute('role', 'alert');
  input.setAttribute('aria-describedby', 'player-name-hint');
  field.append(label, input, hint, problem);
  parent.insertBefore(field, before);
  const translate = () => {
    label.textContent = t('names.optional');
    hint.textContent = t('names.hint');
  };
  translate();
  onLanguageChange(translate);
  const name = attachNameInput(input, problem);
  return {
    // Adds the name to a create request; false (and the reason shown) when
    // the typed name would be refused.
    apply(body) {
      if (!name.check()) {
        input.focus();
        return false;
      }
      const value = name.value();
      if (value && body.mode !== 'hotseat') body.name = value;
      return true;
    },
  };
}
