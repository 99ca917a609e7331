// The 404 page needs only the shared page setup: its text is static markup
// translated from web/i18n/*.json.

import { initPage, markReady } from '../lib/page.js';

initPage().then(markReady);
