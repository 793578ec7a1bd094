// Game records: reading an OGN file, the analysis board's link for a game,
// the list of moves and the rules in words.

import { RULES, h, indexOf, parsePosition, sideOfPit, startOf } from "./util.js";

export function parseOgn(text) {
  let start = null;
  let rules = "abapa";
  let empty = false;
  const tags = /\[(\w+)\s+"([^"]*)"\]/g;
  let t;
  while ((t = tags.exec(text))) {
    if (t[1].toLowerCase() === "fen") start = t[2].trim();
    if (t[1].toLowerCase() === "variant") {
      const v = t[2].trim().toLowerCase().replace(/[\s_]+/g, "-");
      if (RULES.some(([r]) => r === v)) rules = v;
    }
    if (t[1].toLowerCase() === "emptycapture") empty = t[2].trim().toLowerCase() === "yes";
  }
  let body = text.replace(/\[[^\]]*\]/g, " ").replace(/\{[^}]*\}/g, " ").replace(/;[^\n]*/g, " ");
  // Drop variations, nested ones too.
  let prev;
  do {
    prev = body;
    body = body.replace(/\([^()]*\)/g, " ");
  } while (body !== prev);
  const moves = [];
  for (const tok of body.split(/\s+/)) {
    if (!tok || /^\d+\.+$/.test(tok) || /^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) continue;
    const m = /^(?:\d+\.+)?([A-Fa-f])(?:\+\d+)?[!?]*$/.exec(tok);
    if (!m) throw new Error(`"${tok.slice(0, 20)}" is not a move`);
    moves.push(m[1]);
  }
  if (start && !parsePosition(start)) throw new Error("its FEN tag is not a position string");
  return { start: start || startOf(rules), moves, rules, empty: rules === "mancala" && empty };
}

/** The address of the analysis of `start` after `moves` (at move `at`); `empty`: Mancala's empty capture. */
export function analyzeHash(start, moves, rules, at, empty) {
  const p = new URLSearchParams();
  p.set("position", start || startOf(rules));
  if (moves && moves.length) p.set("moves", moves.join(""));
  if (rules && rules !== "abapa") p.set("rules", rules);
  if (rules === "mancala" && empty) p.set("empty", "1");
  if (at !== undefined && moves && at !== moves.length) p.set("at", String(at));
  return "#/analyze?" + p.toString();
}

/**
 * Fills a move list: a numbered line for each South turn and the North turn
 * after it. A turn is one move in Oware and may be several in Mancala (each
 * that ends in the mover's store gives another go, marked ↻). `item(m, i,
 * again)` makes the element of move i.
 */
export function fillMoveList(list, moves, goes, item) {
  let li = null;
  let num = 0;
  let turn = null;
  moves.forEach((m, i) => {
    const side = sideOfPit(indexOf(m));
    const fresh = i === 0 || side !== sideOfPit(indexOf(moves[i - 1]));
    if (fresh && (side === "S" || !li)) {
      num += 1;
      li = h("li", { value: String(num) });
      list.append(li);
      if (side === "N") li.append(h("span", { class: "mv empty" }, "…"));
    }
    if (fresh) {
      turn = h("span", { class: "turn turn-" + side });
      li.append(turn);
    }
    turn.append(item(m, i, !!(goes && goes[i])));
    turn.classList.toggle("multi", turn.childElementCount > 1);
  });
}

/** The rules of a game in words. */
export function rulesText(st) {
  const name = (RULES.find(([r]) => r === st.rules) || [st.rules, st.rules])[1];
  if (st.rules === "mancala") return `${name}, ${st.start_seeds || 3} seeds a house` + (st.empty_capture ? ", empty capture" : "");
  return name + (st.move_cap ? `, ends after ${st.move_cap} half-moves without a capture` : "");
}

/**
 * A series' rule in words, from its format (`first-to:6,lead:3`): its name
 * and what ends it.
 */
export function seriesRule(f) {
  let m;
  if ((m = /^first-to:(\d+),lead:(\d+)$/.exec(f || ""))) return { name: `First to ${m[1]} wins, or ${m[2]} games ahead`, rule: `The series ends when a player has ${m[1]} wins or leads by ${m[2]} games.` };
  if ((m = /^first-to:(\d+)$/.exec(f || ""))) return { name: `First to ${m[1]} wins`, rule: `The series ends when a player has ${m[1]} wins.` };
  if ((m = /^best-of:(\d+)$/.exec(f || ""))) return { name: `Best of ${m[1]}`, rule: `At most ${m[1]} games; the series ends as soon as one player has more wins than the other can still reach.` };
  if ((m = /^straight:(\d+)$/.exec(f || ""))) return { name: `${m[1]} in a row`, rule: `The series ends when a player wins ${m[1]} games in a row.` };
  return { name: f, rule: "" };
}
