// Words and numbers for time: a clock's reading ("4:59", "1:02:03", "2 d
// 3 h") and a time control's description ("10 min + 5 × 30 s byo-yomi"),
// in the page's language. Pure functions of their arguments, shared by the
// game page, the lobby, "My games" and the new-game form.

import { t } from './i18n.js';

const pad = (n) => String(n).padStart(2, '0');

// A remaining time in milliseconds as a clock shows it. Whole seconds are
// rounded up, so "0:00" means the time is really gone.
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86400);
  if (days >= 1) return t('clock.daysHours', { days, hours: Math.floor((total % 86400) / 3600) });
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

// A duration given in whole seconds, in words: "10 min", "1 h 30 min", "45 s".
export function formatDuration(seconds) {
  const parts = [];
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = seconds % 60;
  if (hours) parts.push(t('duration.hours', { count: hours }));
  if (minutes) parts.push(t('duration.minutes', { count: minutes }));
  if (rest || parts.length === 0) parts.push(t('duration.seconds', { count: rest }));
  return parts.join(' ');
}

// The time control object of the API (docs/API.md) as a short phrase.
export function describeTimeControl(tc) {
  switch (tc?.type) {
    case 'absolute': return t('tc.absolute', { main: formatDuration(tc.main) });
    case 'fischer': return t('tc.fischer', { main: formatDuration(tc.main), increment: formatDuration(tc.increment) });
    case 'byoyomi': {
      const periods = { periods: tc.periods, period: formatDuration(tc.period) };
      return tc.main ? t('tc.byoyomi', { main: formatDuration(tc.main), ...periods }) : t('tc.byoyomiOnly', periods);
    }
    default:
      return tc?.days_per_move ? t('tc.days', { count: tc.days_per_move }) : t('tc.none');
  }
}
