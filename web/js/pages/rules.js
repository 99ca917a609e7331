// The rules page needs only the shared page setup: all its text is static
// markup translated from web/i18n/*.json.

import { initPage, markReady } from '../lib/page.js';

initPage().then(markReady);
