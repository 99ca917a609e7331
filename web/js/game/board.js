// The Go board as one SVG, sharp at any size. It draws what it is given (a
// "model" of stones and markers) and reports what the user points at; it
// knows nothing of games, seats or the API.
//
// Geometry: one cell is CELL user units; a margin holds the coordinates. On a
// torus the board shows WRAP extra rows and columns on every side, repeating
// the opposite edges under a faint veil, so a group crossing an edge is seen
// whole; shift() moves the seam. Every stone or marker is drawn at each
// display position of its real vertex; only the copy inside the real board is
// "main" (the wrap copies carry the class "wrap").
//
// Keyboard: the container is focusable; arrows move a cursor (wrapping on a
// torus), Enter or Space tries the point, G toggles a ghost stone. Letter
// keys are read by their place on the keyboard (event.code), so G works the
// same with a Russian or Korean layout.

import { toVertex, parseVertex, columnLetter, starPoints } from '../lib/vertex.js';

const SVG_NS = 'http://www.w3.org/2000/svg';
const CELL = 10;
const MARGIN = 15;
const LABEL_INSET = 5.5;
const WRAP = 2;
const FLASH_MS = 1600;

const mod = (a, n) => ((a % n) + n) % n;

// The markup of one SVG element (build() parses a whole board of them).
function markup(tag, attributes = {}, content = '') {
  const pairs = Object.entries(attributes).map(([name, value]) => ` ${name}="${value}"`).join('');
  return `<${tag}${pairs}>${content}</${tag}>`;
}

function svg(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (parent) parent.append(element);
  return element;
}

export class Board {
  constructor(container, { onPoint = () => {}, onGhost = () => {}, onCursor = () => {} } = {}) {
    this.container = container;
    this.onPoint = onPoint;
    this.onGhost = onGhost;
    this.onCursor = onCursor;
    this.size = 9;
    this.torus = false;
    this.shiftX = 0;
    this.shiftY = 0;
    this.interactive = false;
    this.model = null;
    this.cursor = { x: 4, y: 4 };
    this.hover = null;
    this.root = svg('svg', { class: 'board-svg', 'aria-hidden': 'true', focusable: 'false' });
    container.replaceChildren(this.root);
    container.addEventListener('keydown', (event) => this.handleKey(event));
    this.root.addEventListener('contextmenu', (event) => this.handleContextMenu(event));
    this.root.addEventListener('click', (event) => {
      const hit = Board.hitOf(event);
      if (hit) this.pick(hit.dataset.vertex);
    });
    this.root.addEventListener('pointerover', (event) => {
      const hit = Board.hitOf(event);
      if (hit) this.showHover(Number(hit.dataset.column), Number(hit.dataset.row), hit.dataset.vertex);
      else this.hideHover();
    });
    this.root.addEventListener('pointerleave', () => this.hideHover());
  }

  get wrap() {
    return this.torus ? WRAP : 0;
  }

  configure({ size, torus }) {
    this.size = size;
    this.torus = Boolean(torus);
    this.shiftX = 0;
    this.shiftY = 0;
    this.cursor = this.centre();
    this.container.dataset.size = String(size);
    this.container.classList.toggle('torus', this.torus);
    this.build();
  }

  centre() {
    const middle = Math.floor((this.size - 1) / 2);
    return { x: middle, y: middle };
  }

  // The keyboard cursor, {x, y}: each hot-seat seat keeps its own.
  getCursor() {
    return { ...this.cursor };
  }

  // Puts the cursor at `cursor` (the centre when null) and forgets where the
  // mouse hovered: nothing of the previous pointer is left in the DOM.
  resetPointer(cursor = null) {
    this.cursor = cursor ? { ...cursor } : this.centre();
    this.placeCursor();
    this.hideHover();
  }

  hideHover() {
    if (!this.hover) return;
    for (const name of ['cx', 'cy']) this.hover.removeAttribute(name);
    this.hover.setAttribute('class', 'hover-stone');
    this.hover.setAttribute('visibility', 'hidden');
  }

  // Moves the seam of a torus by whole rows or columns (the view only).
  shift(dx, dy) {
    if (!this.torus) return;
    this.shiftX = mod(this.shiftX + dx, this.size);
    this.shiftY = mod(this.shiftY + dy, this.size);
    this.build();
  }

  resetShift() {
    this.shiftX = 0;
    this.shiftY = 0;
    this.build();
  }

  setInteractive(interactive) {
    this.interactive = interactive;
    this.container.classList.toggle('interactive', interactive);
    if (!interactive) this.hideHover();
  }

  // Display column/row (row counted from the bottom) -> SVG user coordinates.
  px(column) {
    return MARGIN + (column + this.wrap) * CELL;
  }

  py(row) {
    return MARGIN + (this.size - 1 - row + this.wrap) * CELL;
  }

  // Every display position of a real vertex: [column, row, isWrapCopy].
  positions(vertex) {
    const point = parseVertex(vertex, this.size);
    if (!point) return [];
    const column = mod(point.x - this.shiftX, this.size);
    const row = mod(point.y - this.shiftY, this.size);
    const result = [];
    const n = this.size;
    for (const dc of [-n, 0, n]) {
      for (const dr of [-n, 0, n]) {
        const c = column + dc;
        const r = row + dr;
        if (c < -this.wrap || c >= n + this.wrap || r < -this.wrap || r >= n + this.wrap) continue;
        result.push([c, r, dc !== 0 || dr !== 0]);
      }
    }
    return result;
  }

  realVertex(column, row) {
    return toVertex(mod(column + this.shiftX, this.size), mod(row + this.shiftY, this.size));
  }

  // Draws the board itself (wood, grid, stars, coordinates, click targets)
  // as one piece of markup, parsed at once: a 19x19 board is some 500
  // elements, and creating them one by one was a noticeable part of the
  // game page's load. Every value in it is a number, a vertex name or a
  // class name, so nothing needs escaping.
  build() {
    const n = this.size;
    const span = (n - 1 + 2 * this.wrap) * CELL;
    const extent = span + 2 * MARGIN;
    this.root.setAttribute('viewBox', `0 0 ${extent} ${extent}`);
    const layers = ['heat', 'territory', 'stones', 'ghosts', 'markers', 'flash'];
    this.root.innerHTML = [
      markup('rect', { class: 'board-wood', x: 0, y: 0, width: extent, height: extent, rx: 2 }),
      this.gridMarkup(span),
      ...layers.map((name) => markup('g', { class: `layer-${name}` })),
      this.torus ? this.veilMarkup(extent) : '',
      this.labelsMarkup(),
      markup('circle', { class: 'hover-stone', r: CELL * 0.46, visibility: 'hidden' }),
      markup('rect', { class: 'cursor', width: CELL * 0.96, height: CELL * 0.96, rx: 1.5 }),
      this.hitsMarkup(),
    ].join('');
    this.layers = {};
    for (const name of layers) this.layers[name] = this.root.querySelector(`.layer-${name}`);
    this.hover = this.root.querySelector('.hover-stone');
    this.cursorMark = this.root.querySelector('.cursor');
    this.placeCursor();
    if (this.model) this.render(this.model);
  }

  gridMarkup(span) {
    const lines = [];
    const start = MARGIN;
    const end = MARGIN + span;
    for (let i = -this.wrap; i <= this.size - 1 + this.wrap; i++) {
      lines.push(markup('line', { x1: this.px(i), y1: start, x2: this.px(i), y2: end }));
      lines.push(markup('line', { x1: start, y1: this.py(i), x2: end, y2: this.py(i) }));
    }
    if (!this.torus) lines.push(markup('rect', { class: 'grid-edge', x: start, y: start, width: span, height: span }));
    const stars = [];
    for (const vertex of starPoints(this.size)) {
      for (const [c, r] of this.positions(vertex)) stars.push(markup('circle', { cx: this.px(c), cy: this.py(r), r: CELL * 0.1 }));
    }
    return markup('g', { class: 'grid' }, lines.join('')) + markup('g', { class: 'stars' }, stars.join(''));
  }

  // On a torus: a veil over the repeated rows and columns, and a dashed line
  // along the seam, so the real board stands out and the wrap stays visible.
  veilMarkup(extent) {
    const half = CELL / 2;
    const inner0 = this.px(0) - half;
    const inner1 = this.px(this.size - 1) + half;
    const path = `M0 0H${extent}V${extent}H0Z M${inner0} ${inner0}V${inner1}H${inner1}V${inner0}Z`;
    return markup('path', { class: 'torus-veil', d: path, 'fill-rule': 'evenodd' })
      + markup('rect', { class: 'torus-seam', x: inner0, y: inner0, width: inner1 - inner0, height: inner1 - inner0 });
  }

  labelsMarkup() {
    const labels = [];
    const n = this.size;
    const far = MARGIN + (n - 1 + 2 * this.wrap) * CELL;
    for (let i = -this.wrap; i < n + this.wrap; i++) {
      const wrapCopy = i < 0 || i >= n;
      const letter = columnLetter(mod(i + this.shiftX, n));
      const number = String(mod(i + this.shiftY, n) + 1);
      const cls = wrapCopy ? 'coord wrap' : 'coord';
      for (const y of [LABEL_INSET, far + MARGIN - LABEL_INSET]) labels.push(markup('text', { class: cls, x: this.px(i), y }, letter));
      for (const x of [LABEL_INSET, far + MARGIN - LABEL_INSET]) labels.push(markup('text', { class: cls, x, y: this.py(i) }, number));
    }
    return markup('g', { class: 'coords' }, labels.join(''));
  }

  // One transparent square per display point, data-column and data-row
  // giving its place (wrap copies included) and data-vertex the real point;
  // the listeners sit once on the SVG (see the constructor).
  hitsMarkup() {
    const hits = [];
    const n = this.size;
    for (let c = -this.wrap; c < n + this.wrap; c++) {
      for (let r = -this.wrap; r < n + this.wrap; r++) {
        const wrapCopy = c < 0 || c >= n || r < 0 || r >= n;
        hits.push(markup('rect', {
          class: wrapCopy ? 'hit wrap' : 'hit',
          x: this.px(c) - CELL / 2, y: this.py(r) - CELL / 2, width: CELL, height: CELL,
          'data-vertex': this.realVertex(c, r), 'data-column': c, 'data-row': r,
        }));
      }
    }
    return markup('g', { class: 'hits' }, hits.join(''));
  }

  // The click target under an event, or null.
  static hitOf(event) {
    return event.target?.closest?.('.hit') ?? null;
  }

  pick(vertex) {
    if (!this.interactive) return;
    const point = parseVertex(vertex, this.size);
    this.cursor = point;
    this.placeCursor();
    this.onPoint(vertex);
  }

  handleContextMenu(event) {
    const vertex = event.target?.dataset?.vertex;
    if (!vertex || !this.interactive) return;
    event.preventDefault();
    this.onGhost(vertex);
  }

  showHover(column, row, vertex) {
    const model = this.model;
    if (!this.interactive || !model || !model.viewer || this.occupied(vertex)) {
      this.hideHover();
      return;
    }
    this.hover.setAttribute('cx', this.px(column));
    this.hover.setAttribute('cy', this.py(row));
    this.hover.setAttribute('class', `hover-stone ${model.viewer}`);
    this.hover.setAttribute('visibility', 'visible');
  }

  occupied(vertex) {
    const stones = this.model?.stones ?? {};
    return (stones.black ?? []).includes(vertex) || (stones.white ?? []).includes(vertex);
  }

  handleKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (moves[event.key]) {
      if (!this.interactive) return;
      event.preventDefault();
      this.moveCursor(...moves[event.key]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (this.interactive) this.onPoint(this.cursorVertex());
    } else if (event.code === 'KeyG') {
      event.preventDefault();
      if (this.interactive) this.onGhost(this.cursorVertex());
    }
  }

  moveCursor(dx, dy) {
    const n = this.size;
    const move = (value, delta) => (this.torus ? mod(value + delta, n) : Math.min(n - 1, Math.max(0, value + delta)));
    this.cursor = { x: move(this.cursor.x, dx), y: move(this.cursor.y, dy) };
    this.placeCursor();
    this.onCursor(this.cursorVertex());
  }

  cursorVertex() {
    return toVertex(this.cursor.x, this.cursor.y);
  }

  placeCursor() {
    const [column, row] = this.positions(this.cursorVertex()).find((position) => !position[2]) ?? [0, 0];
    this.cursorMark.setAttribute('x', this.px(column) - CELL * 0.48);
    this.cursorMark.setAttribute('y', this.py(row) - CELL * 0.48);
  }

  // Draws a model: {viewer, stones:{black,white}, handicap, last, tried,
  // rejected, ghosts, ghostColor, territory:{black,white}|null, highlight,
  // preview, captured (points where the viewer recently lost stones), taken
  // (points the viewer's own recent move emptied), unseen:{color, vertices},
  // heat:{vertex: percent}|null (the deduction aid, under everything)}.
  render(model) {
    this.model = model;
    for (const layer of Object.values(this.layers)) layer.replaceChildren();
    this.drawHeat(model.heat);
    this.drawTerritory(model.territory);
    this.drawStones(model);
    this.drawUnseen(model.unseen);
    this.drawGhosts(model);
    this.drawMarkers(model);
  }

  // Removes every stone and marker (the hot-seat curtain shows nothing).
  clear() {
    this.model = null;
    for (const layer of Object.values(this.layers)) layer.replaceChildren();
    this.resetPointer();
  }

  eachPosition(vertices, draw) {
    for (const vertex of vertices ?? []) {
      for (const [c, r, wrapCopy] of this.positions(vertex)) draw(this.px(c), this.py(r), vertex, wrapCopy);
    }
  }

  // Each point of territory: its cell shaded in the owner's colour (cut at
  // the board's edge lines), and the owner's square mark in the middle.
  // The deduction aid: each point's cell (cut at the board's edge lines)
  // tinted, stronger the likelier an opponent stone is there. The square
  // root lets a few percent show; data-heat keeps the percent for tests.
  drawHeat(heat) {
    if (!heat) return;
    const [low, high] = [this.px(-this.wrap), this.px(this.size - 1 + this.wrap)];
    const span = (from) => [Math.max(low, from - CELL / 2), Math.min(high, from + CELL / 2)];
    for (const [vertex, percent] of Object.entries(heat)) {
      this.eachPosition([vertex], (x, y, _vertex, wrapCopy) => {
        const [x0, x1] = span(x);
        const [y0, y1] = span(y);
        svg('rect', {
          class: wrapCopy ? 'heat wrap' : 'heat',
          x: x0, y: y0, width: x1 - x0, height: y1 - y0,
          'fill-opacity': (0.04 + 0.5 * Math.sqrt(Math.min(100, percent) / 100)).toFixed(3),
          'data-vertex': vertex, 'data-heat': percent,
        }, this.layers.heat);
      });
    }
  }

  drawTerritory(territory) {
    if (!territory) return;
    const low = this.px(-this.wrap);
    const high = this.px(this.size - 1 + this.wrap);
    const span = (from) => [Math.max(low, from - CELL / 2), Math.min(high, from + CELL / 2)];
    for (const color of ['black', 'white']) {
      this.eachPosition(territory[color], (x, y, vertex, wrapCopy) => {
        const wrap = wrapCopy ? ' wrap' : '';
        const layer = this.layers.territory;
        const [x0, x1] = span(x);
        const [y0, y1] = span(y);
        svg('rect', { class: `territory-area ${color}${wrap}`, x: x0, y: y0, width: x1 - x0, height: y1 - y0 }, layer);
        const s = CELL * 0.4;
        svg('rect', { class: `territory ${color}${wrap}`, x: x - s / 2, y: y - s / 2, width: s, height: s, 'data-vertex': vertex }, layer);
      });
    }
  }

  drawStones(model) {
    const handicap = new Set(model.handicap ?? []);
    for (const color of ['black', 'white']) {
      this.eachPosition(model.stones?.[color], (x, y, vertex, wrapCopy) => {
        const classes = ['stone', color];
        if (color === model.viewer) classes.push('own');
        if (handicap.has(vertex)) classes.push('handicap');
        if (wrapCopy) classes.push('wrap');
        svg('circle', { class: classes.join(' '), cx: x, cy: y, r: CELL * 0.47, 'data-vertex': vertex, 'data-color': color }, this.layers.stones);
        if (handicap.has(vertex)) {
          const s = CELL * 0.22;
          svg('rect', { class: 'handicap-mark', x: x - s / 2, y: y - s / 2, width: s, height: s }, this.layers.stones);
        }
      });
    }
    this.eachPosition(model.last ? [model.last] : [], (x, y) => {
      svg('circle', { class: `last-mark on-${model.viewer ?? 'black'}`, cx: x, cy: y, r: CELL * 0.2 }, this.layers.markers);
    });
  }

  // Opponent stones a player never learned of (after the game): a dashed
  // ring, over a faint stone where that player's view leaves it undrawn.
  drawUnseen(unseen) {
    if (!unseen) return;
    this.eachPosition(unseen.vertices, (x, y, vertex, wrapCopy) => {
      const wrap = wrapCopy ? ' wrap' : '';
      if (!this.occupied(vertex)) {
        svg('circle', { class: `unseen-stone ${unseen.color}${wrap}`, cx: x, cy: y, r: CELL * 0.47, 'data-vertex': vertex }, this.layers.stones);
      }
      svg('circle', { class: `unseen-mark${wrap}`, cx: x, cy: y, r: CELL * 0.3, 'data-vertex': vertex }, this.layers.markers);
    });
  }

  // Points emptied by a recent capture: a small red ring until the viewer
  // moves again.
  drawCaptured(vertices) {
    this.eachPosition(vertices, (x, y, vertex, wrapCopy) => {
      svg('circle', { class: `captured-mark${wrapCopy ? ' wrap' : ''}`, cx: x, cy: y, r: CELL * 0.22, 'data-vertex': vertex }, this.layers.markers);
    });
  }

  // Points the viewer's own recent move emptied: a green square, unlike
  // the red ring of a loss.
  drawTaken(vertices) {
    const side = CELL * 0.36;
    this.eachPosition(vertices ?? [], (x, y, vertex, wrapCopy) => {
      svg('rect', {
        class: `taken-mark${wrapCopy ? ' wrap' : ''}`, x: x - side / 2, y: y - side / 2, width: side, height: side, 'data-vertex': vertex,
      }, this.layers.markers);
    });
  }

  drawGhosts(model) {
    const color = model.ghostColor ?? 'white';
    this.eachPosition(model.ghosts, (x, y, vertex, wrapCopy) => {
      svg('circle', { class: `ghost ${color}${wrapCopy ? ' wrap' : ''}`, cx: x, cy: y, r: CELL * 0.4, 'data-vertex': vertex }, this.layers.ghosts);
    });
    if (model.preview) {
      this.eachPosition([model.preview], (x, y) => {
        svg('circle', { class: `preview ${model.viewer}`, cx: x, cy: y, r: CELL * 0.46, 'data-vertex': model.preview }, this.layers.ghosts);
      });
    }
  }

  cross(x, y, size, className, vertex) {
    const group = svg('g', { class: className, 'data-vertex': vertex }, this.layers.markers);
    svg('line', { x1: x - size, y1: y - size, x2: x + size, y2: y + size }, group);
    svg('line', { x1: x - size, y1: y + size, x2: x + size, y2: y - size }, group);
  }

  drawMarkers(model) {
    const tried = new Set(model.tried ?? []);
    const earlier = (model.rejected ?? []).filter((vertex) => !tried.has(vertex));
    this.eachPosition(earlier, (x, y, vertex, wrapCopy) => this.cross(x, y, CELL * 0.16, `rejected${wrapCopy ? ' wrap' : ''}`, vertex));
    this.eachPosition([...tried], (x, y, vertex, wrapCopy) => this.cross(x, y, CELL * 0.26, `tried${wrapCopy ? ' wrap' : ''}`, vertex));
    this.drawCaptured(model.captured);
    this.drawTaken(model.taken);
    this.eachPosition(model.highlight, (x, y, vertex) => {
      svg('circle', { class: 'highlight', cx: x, cy: y, r: CELL * 0.3, 'data-vertex': vertex }, this.layers.markers);
    });
  }

  // Announced captures: rings that pulse for a moment where stones were taken.
  flash(vertices) {
    const rings = [];
    this.eachPosition(vertices, (x, y, vertex) => {
      rings.push(svg('circle', { class: 'flash', cx: x, cy: y, r: CELL * 0.45, 'data-vertex': vertex }, this.layers.flash));
    });
    setTimeout(() => rings.forEach((ring) => ring.remove()), FLASH_MS);
  }
}
