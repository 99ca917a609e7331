// A QR code drawn in the browser, for a link the server must never see (the
// device link carries seat tokens in its fragment, which no request holds,
// so the server's own QR code, POST /api/v1/qr, cannot draw it).
//
// The encoder is Kazuhiko Arase's qrcode-generator from Debian's package
// node-qrcode-generator, served by the server at /vendor/qrcode.js: a
// classic script that defines the global `qrcode`, loaded the first time a
// code is drawn rather than on every visit. Error correction M (as the
// server's invite code), L when the text is too long for M; a text too long
// for any QR code gets none. The code is one SVG path, a quiet zone of four
// modules around it, black on white whatever the page's colours, since
// cameras read dark on light.

const LIBRARY = '/vendor/qrcode.js';
const QUIET = 4;
const SVG_NS = 'http://www.w3.org/2000/svg';

let loading = null;

// Resolves with the library's qrcode(typeNumber, level) function; rejects
// when the script is missing (the server answers 503 without the package).
export function loadQrLibrary() {
  loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = LIBRARY;
    script.onload = () => (typeof globalThis.qrcode === 'function'
      ? resolve(globalThis.qrcode) : reject(new Error(`${LIBRARY} defined no qrcode()`)));
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error(`${LIBRARY} could not be loaded`));
    };
    document.head.append(script);
  });
  return loading;
}

// The modules of text's QR code, rows of booleans (true: dark), or null
// when text is too long for a QR code. text must be ASCII (the library's
// byte mode takes each character's low byte), as every URL we make is.
export function qrModules(qrcode, text) {
  if (!/^[\x20-\x7e]*$/.test(text)) throw new Error('a QR code of a non-ASCII text');
  for (const level of ['M', 'L']) {
    const qr = qrcode(0, level);
    qr.addData(text, 'Byte');
    try {
      qr.make();
    } catch (error) {
      if (/overflow/.test(String(error))) continue;
      throw error;
    }
    const count = qr.getModuleCount();
    return Array.from({ length: count }, (_, row) => Array.from({ length: count }, (_, col) => qr.isDark(row, col)));
  }
  return null;
}

// An <svg> of the modules: one path of the dark runs of each row, on white.
export function qrSvg(modules) {
  const size = modules.length + 2 * QUIET;
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#ffffff');
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('fill', '#000000');
  path.setAttribute('d', darkRuns(modules));
  svg.append(background, path);
  return svg;
}

function darkRuns(modules) {
  const parts = [];
  modules.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) {
      if (!row[x]) continue;
      let end = x;
      while (end + 1 < row.length && row[end + 1]) end++;
      const length = end - x + 1;
      parts.push(`M${x + QUIET} ${y + QUIET}h${length}v1h-${length}z`);
      x = end;
    }
  });
  return parts.join('');
}
