// A yes/no question in the page's <dialog id="confirm-dialog"> (pass,
// resign). A native modal dialog traps focus and closes on Escape, and the
// answer comes back as a promise. A destructive question (resign) has a red
// button and starts with the focus on Cancel, so a stray Enter cancels.

import { t } from './i18n.js';

export function confirmAction(question, okLabel, { destructive = false } = {}) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = question;
  document.getElementById('confirm-ok').textContent = okLabel;
  document.getElementById('confirm-cancel').textContent = t('dialog.cancel');
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.returnValue = 'cancel';
    const ok = document.getElementById('confirm-ok');
    ok.className = destructive ? 'danger' : 'primary';
    dialog.showModal();
    (destructive ? document.getElementById('confirm-cancel') : ok).focus();
  });
}

export function dialogOpen() {
  return document.getElementById('confirm-dialog')?.open ?? false;
}
