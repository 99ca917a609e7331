// The game page's first script, named in game.html ahead of game.js. It
// needs only i18n.js, so it runs while the page's other modules are still
// loading, and spends that otherwise idle time on what game.js would wait
// for: the words, and the number format (some tens of milliseconds of
// set-up in a fresh page). game.js then finds both ready.

import { startI18n, prepareNumbers } from '../lib/i18n.js';

// A failure is game.js's to report (initPage() waits for the same load).
startI18n().then(prepareNumbers, () => {});
