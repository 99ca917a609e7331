// GTP vertices ("D4") and board coordinates ({x, y}), shared by the board
// drawing, the replay and the page code so that every module agrees on one
// convention: x counts columns from the left, y counts rows from the bottom,
// both 0-based, and column letters skip "I" as GTP and every Go board does.

const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';

export function columnLetter(x) {
  return LETTERS[x];
}

export function toVertex(x, y) {
  return LETTERS[x] + String(y + 1);
}

// Returns {x, y}, or null when the text is not a vertex of a board of `size`.
export function parseVertex(text, size) {
  const match = /^([A-HJ-Z])([0-9]{1,2})$/.exec(String(text).toUpperCase());
  if (!match) return null;
  const x = LETTERS.indexOf(match[1]);
  const y = Number(match[2]) - 1;
  if (x >= size || y < 0 || y >= size) return null;
  return { x, y };
}

// The star points (hoshi) a player expects on a board of this size: the
// 3-3 points on small boards, the 4-4 points from 13x13 up, the centre of
// every odd board, and the side stars on odd boards from 15x15 up.
export function starPoints(size) {
  const points = [];
  const centre = (size - 1) / 2;
  const odd = size % 2 === 1;
  if (size >= 9) {
    const edge = size >= 13 ? 3 : 2;
    const far = size - 1 - edge;
    points.push([edge, edge], [edge, far], [far, edge], [far, far]);
    if (odd && size >= 15) {
      points.push([edge, centre], [far, centre], [centre, edge], [centre, far]);
    }
  }
  if (odd && size >= 7) points.push([centre, centre]);
  return points.map(([x, y]) => toVertex(x, y));
}
