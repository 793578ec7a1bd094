// Sowing and captures, only for drawing the animation: what the board shows
// in the end is always the state the server sent.

import { sideOfPit } from "./util.js";

export function sow(pits, origin) {
  const p = pits.slice();
  let n = p[origin];
  p[origin] = 0;
  let i = origin;
  const path = [];
  while (n > 0) {
    i = (i + 1) % 12;
    if (i === origin) continue;
    p[i] += 1;
    n -= 1;
    path.push(i);
  }
  return { pits: p, path, last: i };
}

/**
 * Mancala's sowing (RULES.md §7): on through the mover's houses into its
 * own store ("S" or "N" in the path), on through the opponent's houses, the
 * opponent's store skipped and the origin not.
 */
export function sowMancala(pits, stores, origin) {
  const p = pits.slice();
  const st = stores.slice();
  const mover = sideOfPit(origin);
  const beforeStore = mover === "S" ? 5 : 11;
  let n = p[origin];
  p[origin] = 0;
  let at = origin;
  const path = [];
  while (n > 0) {
    if (at === beforeStore) at = mover;
    else if (at === mover) at = (beforeStore + 1) % 12;
    else at = (at + 1) % 12;
    if (at === mover) st[mover === "S" ? 0 : 1] += 1;
    else p[at] += 1;
    n -= 1;
    path.push(at);
  }
  return { pits: p, stores: st, path, last: at };
}

/** The houses a Mancala move empties into the mover's store: the last one and the one opposite. */
export function mancalaCaptured(pits, mover, last, emptyCapture) {
  if (typeof last !== "number" || sideOfPit(last) !== mover || pits[last] !== 1) return [];
  if (pits[11 - last] > 0) return [last, 11 - last];
  return emptyCapture ? [last] : [];
}

/** The pits a move captures. `hint` is the number of seeds the server says it captured; `store` the mover's store (capture-to-win). */
export function capturedPits(pits, mover, last, hint, rules, store = 0) {
  if (hint === 0) return [];
  const opp = mover === "S" ? [6, 11] : [0, 5];
  const run = [];
  let i = last;
  while (i >= opp[0] && i <= opp[1] && (pits[i] === 2 || pits[i] === 3)) {
    run.push(i);
    i -= 1;
  }
  if (hint == null && run.length) {
    let left = 0;
    for (let k = opp[0]; k <= opp[1]; k++) if (!run.includes(k)) left += pits[k];
    const taken = run.reduce((t, k) => t + pits[k], 0);
    const slamCaptures = rules === "awari" || rules === "capture-and-end" || (rules === "capture-to-win" && store + taken >= 25);
    if (left === 0 && !slamCaptures) return [];
  }
  return run;
}
