// The page of `oware serve`: a new-game form, the game board (live over a
// WebSocket) and an analysis board, for Oware and Arabic Mancala. No
// framework, no build step. Everything the server sends goes into the DOM
// as text (textContent / attributes), never as HTML.

const LETTERS = "ABCDEFabcdef";
const START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
const RULES = [
  ["abapa", "Abapa (default)"],
  ["grand-slam-forbidden", "Abapa, grand slam forbidden"],
  ["capture-and-end", "Abapa, capture and end"],
  ["awari", "Awari (Romein & Bal)"],
  ["mancala", "Arabic Mancala"],
];
const MANCALA_SEEDS = [3, 4, 5, 7];
/** The start of a rule set: Oware's, or Mancala's with k seeds a house. */
const startOf = (rules, k) => (rules === "mancala" ? Array(12).fill(k || 3).join("-") + "-0-0-S" : START);
/** The most seeds a position may hold (Mancala: seven a house). */
const maxSeeds = (rules) => (rules === "mancala" ? 84 : 48);
const LEVELS = ["easy", "medium", "hard", "full"];
const REASONS = {
  majority: "by majority: more than half of the 48 seeds",
  repetition: "by repetition: each side took the seeds on its own side",
  "no-seeds": "a side had no seeds to move: the other took the seeds left",
  "cannot-feed": "the opponent could not be fed: the seeds left went to the side to move",
  "move-limit": "at the move limit: each side took the seeds on its own side",
  resigned: "by resignation",
  "draw-agreed": "draw agreed",
  "all-stored": "every seed is in a store",
  "one-row": "the seeds left were all in one row: they went to that row's owner",
  stop: "a store holds 25 seeds or more",
};
const SIDE_NAME = { S: "South", N: "North" };

// ---------------------------------------------------------------- helpers

/** Builds an element: attributes set with setAttribute, children as text. */
function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
      else if (k === "class") el.className = v;
      else if (k === "value") el.value = v;
      else if (k === "checked") el.checked = !!v;
      else el.setAttribute(k, v === true ? "" : String(v));
    }
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

const letterOf = (i) => LETTERS[i];
const indexOf = (l) => LETTERS.indexOf(l);
const sideOfPit = (i) => (i < 6 ? "S" : "N");
const other = (s) => (s === "S" ? "N" : "S");

function parsePosition(str) {
  const m = /^\s*(\d+(?:-\d+){13})-([SN])\s*$/.exec(str || "");
  if (!m) return null;
  const nums = m[1].split("-").map(Number);
  return { pits: nums.slice(0, 12), stores: nums.slice(12, 14), toMove: m[2] };
}

function positionString(pits, stores, toMove) {
  return [...pits, ...stores].join("-") + "-" + toMove;
}

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, opts);
  } catch (e) {
    throw new Error("the server cannot be reached");
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!res.ok) {
    const msg = data && typeof data.error === "string" ? data.error : `HTTP ${res.status}`;
    const err = new Error(msg);
    err.status = res.status;
    throw err;
  }
  return data;
}

const store = {
  get(k) {
    try {
      return localStorage.getItem(k);
    } catch (e) {
      return null;
    }
  },
  set(k, v) {
    try {
      localStorage.setItem(k, v);
    } catch (e) {
      /* private mode: the seat is kept for this page only */
    }
  },
};

function tokenFor(id) {
  return store.get("oware.token." + id);
}
function linksFor(id) {
  try {
    return JSON.parse(store.get("oware.links." + id) || "null");
  } catch (e) {
    return null;
  }
}
function skipAnimations() {
  return store.get("oware.skipAnimations") === "1";
}

/** Copies text, with a fallback for pages that are not a secure context. */
async function copyText(text, input) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (e) {
    /* fall back below */
  }
  if (input) {
    input.focus();
    input.select();
    try {
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }
  return false;
}

function formatScore(m) {
  if (!m) return "";
  const s = typeof m.score === "number" ? m.score : Number(m.score);
  const signed = (s > 0 ? "+" : "") + (Number.isInteger(s) ? String(s) : s.toFixed(2));
  if (m.result === "win" || m.result === "loss") {
    const by = m.bound ? (m.result === "win" ? "≥ " : "≤ ") : "";
    return `${m.result} ${by}${signed}` + (m.plies ? ` in ${m.plies}` : "");
  }
  return signed;
}

// ------------------------------------------------------------------ rules
// Only for drawing the animation: what the board shows in the end is always
// the state the server sent.

function sow(pits, origin) {
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
function sowMancala(pits, stores, origin) {
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
function mancalaCaptured(pits, mover, last, emptyCapture) {
  if (typeof last !== "number" || sideOfPit(last) !== mover || pits[last] !== 1) return [];
  if (pits[11 - last] > 0) return [last, 11 - last];
  return emptyCapture ? [last] : [];
}

/** The pits a move captures. `hint` is the number of seeds the server says it captured. */
function capturedPits(pits, mover, last, hint, rules) {
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
    if (left === 0 && rules !== "awari" && rules !== "capture-and-end") return [];
  }
  return run;
}

// ------------------------------------------------------------------ board

class Board {
  constructor(opts) {
    this.onPit = opts.onPit || (() => {});
    this.pits = [];
    this.stores = {};
    this.counts = new Array(12).fill(0);
    this.skipRequested = false;
    this.waiters = new Set();
    this.el = h("div", { class: "board", id: "board", "data-animating": "0" });
    const rowN = h("div", { class: "row row-n", role: "group", "aria-label": "North's pits" });
    const rowS = h("div", { class: "row row-s", role: "group", "aria-label": "South's pits" });
    for (let i = 0; i < 12; i++) {
      const l = letterOf(i);
      const seeds = h("span", { class: "seeds", "aria-hidden": "true" });
      const count = h("span", { class: "count", "aria-hidden": "true" }, "0");
      const cup = h("span", { class: "cup" }, seeds, count);
      const btn = h(
        "button",
        { type: "button", class: "pit pit-" + sideOfPit(i), "data-pit": l, "data-count": "0" },
        i < 6 ? [cup, h("span", { class: "letter", "aria-hidden": "true" }, l)] : [h("span", { class: "letter", "aria-hidden": "true" }, l), cup],
      );
      btn.addEventListener("click", () => {
        if (this.animating) {
          this.skip();
          return;
        }
        this.onPit(l);
      });
      this.pits[i] = { btn, seeds, count };
    }
    // North's row, seen from South: f … a, left to right (a faces F).
    for (let i = 11; i >= 6; i--) rowN.append(this.pits[i].btn);
    for (let i = 0; i < 6; i++) rowS.append(this.pits[i].btn);
    for (const s of ["N", "S"]) {
      const num = h("span", { class: "store-count" }, "0");
      const seeds = h("span", { class: "seeds", "aria-hidden": "true" });
      const el = h(
        "div",
        { class: "store store-" + s, "data-side": s, "data-count": "0", role: "img", "aria-label": `${SIDE_NAME[s]}'s store, 0 seeds` },
        h("span", { class: "store-name", "aria-hidden": "true" }, SIDE_NAME[s]),
        seeds,
        num,
      );
      this.stores[s] = { el, num, seeds, count: 0 };
    }
    this.el.append(this.stores.N.el, h("div", { class: "rows" }, rowN, rowS), this.stores.S.el);
    this.el.addEventListener("click", (e) => {
      if (this.animating && !e.target.closest(".pit")) this.skip();
    });
  }

  setPit(i, n) {
    const p = this.pits[i];
    this.counts[i] = n;
    p.count.textContent = String(n);
    p.btn.dataset.count = String(n);
    p.btn.setAttribute("aria-label", `pit ${letterOf(i)}, ${n} seed${n === 1 ? "" : "s"}` + (p.btn.classList.contains("last") ? ", last move" : ""));
    drawSeeds(p.seeds, n, i * 7 + 3);
  }

  setStore(s, n) {
    const st = this.stores[s];
    st.count = n;
    st.num.textContent = String(n);
    st.el.dataset.count = String(n);
    st.el.setAttribute("aria-label", `${SIDE_NAME[s]}'s store, ${n} seed${n === 1 ? "" : "s"}`);
    drawSeeds(st.seeds, Math.min(n, 48), s === "S" ? 11 : 5, true);
  }

  setAll(pits, stores) {
    for (let i = 0; i < 12; i++) if (this.counts[i] !== pits[i] || !this.pits[i].btn.hasAttribute("aria-label")) this.setPit(i, pits[i]);
    this.setStore("S", stores[0]);
    this.setStore("N", stores[1]);
  }

  /** Marks the pits that can be played, and the last move. */
  setMarks({ playable = [], last = null, toMove = null }) {
    for (let i = 0; i < 12; i++) {
      const l = letterOf(i);
      const btn = this.pits[i].btn;
      const can = playable.includes(l);
      btn.classList.toggle("playable", can);
      btn.setAttribute("aria-disabled", can ? "false" : "true");
      btn.classList.toggle("last", last === l);
      btn.classList.toggle("to-move", toMove === sideOfPit(i));
    }
    for (let i = 0; i < 12; i++) this.setPit(i, this.counts[i]);
    this.el.dataset.toMove = toMove || "";
  }

  get animating() {
    return this.el.dataset.animating === "1";
  }

  skip() {
    this.skipRequested = true;
    for (const w of this.waiters) w();
    this.waiters.clear();
  }

  wait(ms) {
    if (this.skipRequested) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.waiters.delete(done);
        resolve();
      };
      const t = setTimeout(done, ms);
      this.waiters.add(done);
    });
  }

  center(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  /** A seed that flies from one element to another and fades. */
  fly(from, to, delay) {
    if (this.skipRequested) return;
    const a = this.center(from);
    const b = this.center(to);
    const dot = h("span", { class: "flying", "aria-hidden": "true" });
    dot.style.left = a.x + window.scrollX + "px";
    dot.style.top = a.y + window.scrollY + "px";
    document.body.append(dot);
    setTimeout(() => {
      dot.style.transform = `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(0.6)`;
      dot.style.opacity = "0.2";
    }, 20 + delay);
    setTimeout(() => dot.remove(), 700 + delay);
  }

  /**
   * Sows `move` seed by seed from `before`, then shows the capture, under
   * `game`'s rules ({ rules, empty }: the rule set's name and Mancala's empty
   * capture). Returns the board after the move as this function drew it.
   */
  async animateMove(before, move, hint, game) {
    const origin = indexOf(move);
    const mover = sideOfPit(origin);
    const mi = mover === "S" ? 0 : 1;
    const mancala = game.rules === "mancala";
    const pits = before.pits.slice();
    const stores = before.stores.slice();
    const { path, last } = mancala ? sowMancala(pits, stores, origin) : sow(pits, origin);
    const oBtn = this.pits[origin].btn;
    oBtn.classList.add("lifted");
    let hand = pits[origin];
    pits[origin] = 0;
    this.setPit(origin, 0);
    const step = Math.max(60, Math.min(200, 2400 / Math.max(1, hand)));
    await this.wait(160);
    for (const i of path) {
      if (this.skipRequested) break;
      hand -= 1;
      let el;
      if (typeof i === "number") {
        pits[i] += 1;
        this.setPit(i, pits[i]);
        el = this.pits[i].btn;
      } else {
        // Mancala: a seed in the mover's own store.
        stores[mi] += 1;
        this.setStore(i, stores[mi]);
        el = this.stores[i].el;
      }
      el.classList.add("sown");
      setTimeout(() => el.classList.remove("sown"), 260);
      await this.wait(step);
    }
    oBtn.classList.remove("lifted");
    if (this.skipRequested) return null;
    const caught = mancala ? mancalaCaptured(pits, mover, last, game.empty) : capturedPits(pits, mover, last, hint, game.rules);
    if (caught.length) {
      for (const i of caught) this.pits[i].btn.classList.add("captured");
      await this.wait(450);
      const st = this.stores[mover];
      let d = 0;
      for (const i of caught) {
        for (let k = 0; k < Math.min(pits[i], 6); k++) this.fly(this.pits[i].btn, st.el, (d += 40));
        stores[mi] += pits[i];
        pits[i] = 0;
      }
      await this.wait(500);
      for (const i of caught) {
        this.pits[i].btn.classList.remove("captured");
        this.setPit(i, 0);
      }
      this.setStore(mover, stores[mi]);
      await this.wait(200);
    }
    if (this.skipRequested) return null;
    return { pits, stores };
  }

  /** The end of a game: the seeds left on the board go to the stores. */
  async animateSweep(before, after) {
    const gainS = after.stores[0] - before.stores[0];
    const gainN = after.stores[1] - before.stores[1];
    let d = 0;
    const moved = [];
    for (let i = 0; i < 12; i++) {
      if (before.pits[i] > 0 && after.pits[i] === 0) {
        const own = sideOfPit(i);
        let to = own;
        if (gainS > 0 && gainN <= 0) to = "S";
        else if (gainN > 0 && gainS <= 0) to = "N";
        this.pits[i].btn.classList.add("swept");
        for (let k = 0; k < Math.min(before.pits[i], 5); k++) this.fly(this.pits[i].btn, this.stores[to].el, (d += 30));
        moved.push(i);
      }
    }
    if (!moved.length) return;
    await this.wait(700);
    for (const i of moved) this.pits[i].btn.classList.remove("swept");
  }

  async run(fn) {
    this.skipRequested = false;
    this.el.dataset.animating = "1";
    try {
      await fn();
    } finally {
      this.el.dataset.animating = "0";
      this.skipRequested = false;
    }
  }
}

/** Draws n seeds as small circles in a sunflower pattern (deterministic). */
function drawSeeds(el, n, salt, wide) {
  const shown = Math.min(n, wide ? 48 : 30);
  if (el.childElementCount === shown) return;
  clear(el);
  if (!shown) return;
  const size = shown <= 4 ? 24 : shown <= 8 ? 20 : shown <= 14 ? 16 : shown <= 22 ? 13 : 11;
  const radius = 50 - size / 2 - 6;
  for (let k = 0; k < shown; k++) {
    let x = 50;
    let y = 50;
    if (wide) {
      // A store fills from the bottom, three seeds a row, a little askew.
      const jitter = (((k + salt) * 37) % 11) - 5;
      x = 26 + (k % 3) * 24 + jitter * 0.8;
      y = 94 - Math.floor(k / 3) * 5.8 + (((k * 13) % 5) - 2) * 0.6;
    } else if (shown > 1) {
      const r = radius * Math.sqrt((k + 0.6) / shown);
      const a = (k + salt) * 2.39996;
      x = 50 + r * Math.cos(a) * (wide ? 0.9 : 1);
      y = 50 + r * Math.sin(a) * (wide ? 0.95 : 1);
    }
    const s = h("span", { class: "seed seed-" + ((k + salt) % 3) });
    if (wide) {
      // A store is tall and narrow: seeds of one size, scattered over it.
      s.style.left = `calc(${x}% - 6px)`;
      s.style.top = `calc(${y}% - 6px)`;
      s.style.width = "12px";
      s.style.height = "12px";
    } else {
      s.style.left = x - size / 2 + "%";
      s.style.top = y - size / 2 + "%";
      s.style.width = size + "%";
      s.style.height = size + "%";
    }
    el.append(s);
  }
}

function animationToggle() {
  const box = h("input", {
    type: "checkbox",
    id: "skip-anim",
    checked: skipAnimations(),
    onchange: (e) => store.set("oware.skipAnimations", e.target.checked ? "1" : "0"),
  });
  return h("label", { class: "toggle" }, box, " Skip animations");
}

// ------------------------------------------------------------------ views

let current = null; // the view on screen: { destroy() }

function route() {
  if (current && current.destroy) current.destroy();
  current = null;
  const app = document.getElementById("app");
  clear(app);
  const hash = location.hash.replace(/^#/, "") || "/";
  const q = hash.indexOf("?");
  const path = q < 0 ? hash : hash.slice(0, q);
  const params = new URLSearchParams(q < 0 ? "" : hash.slice(q + 1));
  let m;
  if ((m = /^\/game\/([A-Za-z0-9_-]+)$/.exec(path))) current = gameView(app, m[1], params);
  else if (path === "/analyze") current = analyzeView(app, params);
  else current = newGameView(app);
  for (const a of document.querySelectorAll("nav a")) {
    a.toggleAttribute("aria-current", a.getAttribute("href") === "#" + (path === "/" ? "/" : path));
  }
}

function field(label, control, hint) {
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control, hint ? h("p", { class: "hint" }, hint) : null);
}

function select(id, options, value) {
  return h("select", { id, name: id }, options.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
}

// ---------------------------------------------------------- new game form

function newGameView(app) {
  const msg = h("p", { class: "message", id: "message", role: "alert" });
  const seatOpts = [
    ["human", "A person here (me)"],
    ["link", "A person with the link"],
    ["engine", "The engine"],
  ];
  const rules = select("rules", RULES, "abapa");
  const cap = h("input", { type: "checkbox", id: "move-cap" });
  const seeds = select("start-seeds", MANCALA_SEEDS.map((k) => [String(k), k === 3 ? "3 (default)" : String(k)]), "3");
  const empty = h("input", { type: "checkbox", id: "empty-capture" });
  const south = select("south", seatOpts, "human");
  const north = select("north", seatOpts, "engine");
  const level = select("level", LEVELS.map((l) => [l, l[0].toUpperCase() + l.slice(1)]), "easy");
  const kind = select(
    "series-kind",
    [
      ["", "A single game"],
      ["first-to", "First to N wins"],
      ["first-to-lead", "First to N wins, with a lead of K"],
      ["best-of", "Best of N games"],
      ["straight", "N games straight"],
    ],
    "",
  );
  const n = h("input", { type: "number", id: "series-n", min: "1", max: "99", value: "3", inputmode: "numeric" });
  const k = h("input", { type: "number", id: "series-k", min: "1", max: "99", value: "2", inputmode: "numeric" });
  const start = h("input", { type: "text", id: "start", placeholder: START, autocomplete: "off", spellcheck: "false" });
  const levelField = field("Engine strength", level, "easy: depth 2 with random slips; medium: depth 6; hard: 0.3 s a move; full: 2 s a move (in Oware with the endgame tables).");
  const nField = field("N", n);
  const kField = field("K (lead)", k);
  const capField = h("div", { class: "field check" }, cap, h("label", { for: "move-cap" }, "End the game after 100 half-moves without a capture (each side takes its own seeds)"));
  const seedsField = field("Seeds a house at the start", seeds);
  const emptyField = h("div", { class: "field check" }, empty, h("label", { for: "empty-capture" }, "Empty capture (Kalah's rule)"));
  const mancalaNote = h("p", { class: "hint", id: "mancala-rules" }, "Arabic Mancala: sow into your own store (not the opponent's); a last seed in your store gives you another go; a last seed in an empty house of your row takes the house opposite (with the empty capture, it goes to your store even when that house is empty). The game ends when the seeds left are all in one row, or a store holds 25.");
  const seriesSet = h("fieldset", { id: "series-set" }, h("legend", null, "Series"), h("div", { class: "grid" }, field("Format", kind), nField, kField));
  const seriesNote = h("p", { class: "hint", id: "series-note" }, "Series are played in Oware only.");
  const sync = () => {
    const mancala = rules.value === "mancala";
    levelField.hidden = south.value !== "engine" && north.value !== "engine";
    nField.hidden = !kind.value;
    kField.hidden = kind.value !== "first-to-lead";
    capField.hidden = mancala;
    seedsField.hidden = !mancala;
    emptyField.hidden = !mancala;
    mancalaNote.hidden = !mancala;
    seriesSet.hidden = mancala;
    seriesNote.hidden = !mancala;
    start.placeholder = startOf(rules.value, parseInt(seeds.value, 10));
  };
  for (const c of [south, north, kind, rules, seeds]) c.addEventListener("change", sync);
  sync();

  const body = () => {
    let series = null;
    const N = Math.max(1, Math.min(99, parseInt(n.value, 10) || 1));
    const K = Math.max(1, Math.min(99, parseInt(k.value, 10) || 1));
    if (kind.value === "first-to") series = `first-to:${N}`;
    else if (kind.value === "first-to-lead") series = `first-to:${N},lead:${K}`;
    else if (kind.value === "best-of") series = `best-of:${N}`;
    else if (kind.value === "straight") series = `straight:${N}`;
    const b = { rules: rules.value, move_cap: cap.checked ? 100 : null, south: south.value, north: north.value, level: level.value, series };
    if (rules.value === "mancala") {
      b.move_cap = null;
      b.series = null;
      b.start_seeds = parseInt(seeds.value, 10) || 3;
      b.empty_capture = empty.checked;
    }
    if (start.value.trim()) b.start = start.value.trim();
    return b;
  };

  const created = (res) => {
    store.set("oware.token." + res.id, res.token || "");
    store.set("oware.links." + res.id, JSON.stringify(res.links || null));
    location.hash = `#/game/${encodeURIComponent(res.id)}`;
  };

  const form = h(
    "form",
    {
      id: "new-game",
      class: "panel",
      onsubmit: async (e) => {
        e.preventDefault();
        msg.textContent = "";
        const b = body();
        if (b.start && !parsePosition(b.start)) {
          msg.textContent = "The start position must look like " + startOf(b.rules, b.start_seeds);
          return;
        }
        try {
          created(await api("POST", "/api/games", b));
        } catch (err) {
          msg.textContent = "Cannot create the game: " + err.message;
        }
      },
    },
    h("h1", null, "New game"),
    h("div", { class: "grid" }, field("Rules", rules), capField, seedsField, emptyField),
    mancalaNote,
    h("fieldset", null, h("legend", null, "Players"), h("div", { class: "grid" }, field("South (bottom row, moves first)", south), field("North (top row)", north)), levelField),
    seriesSet,
    seriesNote,
    h("details", null, h("summary", null, "Start from another position"), field("Position string", start, "p0-…-p11-S-N-T, the twelve pits from A to f, the two stores and the side to move.")),
    h("div", { class: "actions" }, h("button", { type: "submit", id: "create", class: "primary" }, "Create the game")),
    msg,
  );

  const file = h("input", { type: "file", id: "ogn-file", accept: ".ogn,.pgn,.txt,text/plain" });
  const importMsg = h("p", { class: "message", role: "alert" });
  const readFile = () =>
    new Promise((resolve, reject) => {
      const f = file.files && file.files[0];
      if (!f) return reject(new Error("choose a file first"));
      if (f.size > 256 * 1024) return reject(new Error("the file is too large"));
      const r = new FileReader();
      r.onload = () => resolve(String(r.result));
      r.onerror = () => reject(new Error("the file cannot be read"));
      r.readAsText(f);
    });
  const imp = h(
    "section",
    { class: "panel newgame-import" },
    h("h2", null, "Load a game record (OGN)"),
    field("OGN file", file),
    h(
      "div",
      { class: "actions" },
      h(
        "button",
        {
          type: "button",
          id: "ogn-play",
          onclick: async () => {
            importMsg.textContent = "";
            try {
              const ogn = await readFile();
              const b = body();
              // The rules are the record's own (its Variant tag).
              created(await api("POST", "/api/games/import", { ogn, south: b.south, north: b.north, level: b.level, move_cap: b.move_cap, series: b.series }));
            } catch (err) {
              importMsg.textContent = "Cannot import: " + err.message;
            }
          },
        },
        "Play on from its end",
      ),
      h(
        "button",
        {
          type: "button",
          id: "ogn-analyze",
          onclick: async () => {
            importMsg.textContent = "";
            try {
              const g = parseOgn(await readFile());
              location.hash = analyzeHash(g.start, g.moves, g.rules, g.moves.length);
            } catch (err) {
              importMsg.textContent = "Cannot read the record: " + err.message;
            }
          },
        },
        "Open in analysis",
      ),
    ),
    h("p", { class: "hint" }, "Players as chosen above. The record is read in this browser."),
    importMsg,
  );
  app.append(form, imp);
  return { destroy() {} };
}

function parseOgn(text) {
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
function analyzeHash(start, moves, rules, at, empty) {
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
function fillMoveList(list, moves, goes, item) {
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
function rulesText(st) {
  const name = (RULES.find(([r]) => r === st.rules) || [st.rules, st.rules])[1];
  if (st.rules === "mancala") return `${name}, ${st.start_seeds || 3} seeds a house` + (st.empty_capture ? ", empty capture" : "");
  return name + (st.move_cap ? `, ends after ${st.move_cap} half-moves without a capture` : "");
}

// -------------------------------------------------------------- game view

function gameView(app, id, params) {
  const urlToken = params.get("token");
  if (urlToken) store.set("oware.token." + id, urlToken);
  const token = urlToken || tokenFor(id) || null;
  let seat = null;
  let state = null; // the state on screen (after its animation)
  let latest = null; // the newest state received
  let queue = Promise.resolve();
  let ws = null;
  let retry = 0;
  let retryTimer = null;
  let destroyed = false;
  let pending = false;
  let confirmResign = false;

  const msg = h("p", { class: "message", id: "message", role: "alert" });
  const status = h("p", { class: "status", id: "status", "aria-live": "polite" }, "Loading the game…");
  const conn = h("span", { class: "conn", id: "conn" });
  const players = h("div", { class: "players", id: "players" });
  const board = new Board({ onPit: (l) => play(l) });
  const controls = h("div", { class: "controls", id: "controls" });
  const series = h("section", { class: "series panel", id: "series", hidden: true });
  const share = h("section", { class: "share panel", id: "share" });
  const moves = h("ol", { class: "movelist", id: "movelist", "aria-label": "Moves" });
  const tools = h("div", { class: "actions" });

  app.append(
    h(
      "div",
      { class: "game" },
      h("div", { class: "play" }, h("div", { class: "headline" }, status, conn), players, board.el, controls, msg, h("div", { class: "under" }, animationToggle(), h("span", { class: "hint" }, "Click a pit or type its letter. Click the board to skip an animation."))),
      h("aside", { class: "side" }, series, h("section", { class: "panel" }, h("h2", null, "Moves"), moves, tools), share),
    ),
  );

  const mySides = () => (seat === "both" ? ["S", "N"] : seat === "south" ? ["S"] : seat === "north" ? ["N"] : []);
  const kindOf = (st, s) => (st.players && st.players[s === "S" ? "south" : "north"]) || {};
  const myTurn = (st) => st && st.status === "ongoing" && mySides().includes(st.to_move) && kindOf(st, st.to_move).kind !== "engine";

  async function play(letter) {
    msg.textContent = "";
    const st = latest;
    if (!st || pending || board.animating) return;
    if (!myTurn(st)) {
      msg.textContent = st.status !== "ongoing" ? "The game is over." : seat ? "It is not your turn." : "You are watching this game.";
      return;
    }
    if (!st.legal.includes(letter)) {
      msg.textContent = `${letter} is not a legal move here` + (st.legal.length ? ` (legal: ${st.legal.join(" ")}).` : ".");
      return;
    }
    pending = true;
    try {
      receive(await api("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move: letter, token }));
    } catch (err) {
      msg.textContent = "Move refused: " + err.message;
    } finally {
      pending = false;
    }
  }

  async function action(path, body, what) {
    msg.textContent = "";
    try {
      const res = await api("POST", `/api/games/${encodeURIComponent(id)}/${path}`, { token, ...body });
      return res;
    } catch (err) {
      msg.textContent = `${what}: ${err.message}`;
      return null;
    }
  }

  function receive(st) {
    if (!st || typeof st !== "object" || destroyed) return;
    if (st.id && st.id !== id) return;
    if (latest && st.ply < latest.ply) return;
    latest = st;
    queue = queue.then(() => show(st)).catch((e) => console.error(e));
  }

  async function show(st) {
    // A newer state came in meanwhile: that one is drawn (and animated) instead.
    if (destroyed || st !== latest) return;
    const prev = state;
    const animate = prev && !skipAnimations() && st.ply > prev.ply && st.ply - prev.ply <= 4 && prev.moves.every((m, i) => st.moves[i] === m);
    if (animate) {
      board.setMarks({ playable: [], last: prev.moves[prev.ply - 1] || null, toMove: null });
      await board.run(async () => {
        let pos = { pits: prev.pits, stores: prev.stores };
        for (let i = prev.ply; i < st.ply && pos; i++) {
          board.setMarks({ playable: [], last: st.moves[i], toMove: null });
          const mv = st.moves[i];
          status.textContent = `${SIDE_NAME[sideOfPit(indexOf(mv))]} plays ${mv}` + (st.captures && st.captures[i] ? `, capturing ${st.captures[i]}` : "") + "…";
          pos = await board.animateMove(pos, st.moves[i], st.captures ? st.captures[i] : null, { rules: st.rules, empty: !!st.empty_capture });
        }
        if (pos && st.status === "over") await board.animateSweep(pos, st);
      });
    }
    state = st;
    render();
  }

  function playerLabel(st, s) {
    const p = kindOf(st, s);
    const mine = mySides().includes(s) && p.kind !== "engine";
    if (p.kind === "engine") return `Engine (${p.level || "?"})`;
    if (mine) return "You";
    const player = mySides().length > 0;
    if (p.kind === "link" && !p.joined) return "Opponent (link not opened yet)";
    if (player) return "Opponent";
    return p.kind === "link" ? "Player (by link)" : "Player";
  }

  function render() {
    const st = state;
    if (!st) return;
    board.setAll(st.pits, st.stores);
    const last = st.ply > 0 ? st.moves[st.ply - 1] : null;
    board.setMarks({ playable: myTurn(st) && !pending ? st.legal : [], last, toMove: st.status === "ongoing" ? st.to_move : null });
    board.el.dataset.ply = String(st.ply);
    board.el.dataset.position = st.position;
    board.el.dataset.status = st.status;
    board.el.dataset.moves = st.moves.join("");

    // Whose turn, or how it ended.
    if (st.status === "over") {
      const r = st.result || { winner: st.winner, reason: st.reason, stores: st.stores };
      const sc = r.stores || st.stores;
      const who = r.winner ? `${SIDE_NAME[r.winner]} (${playerLabel(st, r.winner)}) wins` : "Draw";
      let why = REASONS[r.reason] || r.reason || "";
      if (r.reason === "resigned" && r.winner) why = `${SIDE_NAME[other(r.winner)]} resigned`;
      status.textContent = `Game over: ${who}, ${sc[0]}–${sc[1]}${why ? " — " + why : ""}.`;
      status.dataset.over = "1";
    } else {
      const s = st.to_move;
      // Mancala: the last move ended in the mover's store, who moves again.
      const again = !!st.moves_again;
      let t = again ? `Another go: ${SIDE_NAME[s]} moves again (${playerLabel(st, s)})` : `${SIDE_NAME[s]} to move (${playerLabel(st, s)})`;
      if (myTurn(st)) {
        if (again) t = seat === "both" ? `Another go: ${SIDE_NAME[s]} moves again, your move` : `Another go: your move again (${SIDE_NAME[s]})`;
        else t = seat === "both" ? `${SIDE_NAME[s]} to move: your move` : `Your move (${SIDE_NAME[s]})`;
      }
      if (st.thinking) t += " — the engine is thinking…";
      status.textContent = t;
      status.dataset.over = "0";
    }
    status.dataset.turn = st.to_move;
    status.dataset.again = st.moves_again && st.status === "ongoing" ? "1" : "0";

    clear(players);
    for (const s of ["N", "S"]) {
      const kept = st.rules === "mancala" ? "in store" : "captured";
      players.append(h("span", { class: "player player-" + s + (st.status === "ongoing" && st.to_move === s ? " active" : "") }, h("b", null, SIDE_NAME[s] + ": "), playerLabel(st, s), ` · ${st.stores[s === "S" ? 0 : 1]} ${kept}`));
    }
    players.append(h("span", { class: "player rules", id: "rules-name" }, rulesText(st)));
    if (!mySides().length) players.append(h("span", { class: "player rules", id: "watching" }, "You are watching"));

    renderControls(st);
    renderMoves(st);
    renderSeries(st);
    renderShare(st);
  }

  function renderControls(st) {
    clear(controls);
    const playing = mySides().length > 0 && mySides().some((s) => kindOf(st, s).kind !== "engine");
    if (st.status === "ongoing" && playing) {
      if (confirmResign) {
        controls.append(
          h("button", { type: "button", id: "resign-confirm", class: "danger", onclick: async () => { confirmResign = false; const r = await action("resign", {}, "Cannot resign"); if (r) receive(r); else render(); } }, "Yes, resign"),
          h("button", { type: "button", id: "resign-cancel", onclick: () => { confirmResign = false; render(); } }, "Keep playing"),
        );
      } else {
        controls.append(h("button", { type: "button", id: "resign", onclick: () => { confirmResign = true; render(); } }, "Resign"));
      }
      const offer = st.draw_offer;
      const mine = offer && mySides().includes(offer);
      const engineOpp = mySides().length === 1 && kindOf(st, other(mySides()[0])).kind === "engine";
      if (!offer && !engineOpp) {
        controls.append(h("button", { type: "button", id: "draw-offer", onclick: async () => { const r = await action("draw", { action: "offer" }, "Cannot offer a draw"); if (r) receive(r); } }, "Offer a draw"));
      } else if (offer && mine && seat !== "both") {
        controls.append(h("span", { class: "note" }, "You offered a draw."));
      } else if (offer) {
        controls.append(
          h("span", { class: "note" }, `${SIDE_NAME[offer]} offers a draw.`),
          h("button", { type: "button", id: "draw-accept", onclick: async () => { const r = await action("draw", { action: "accept" }, "Cannot accept"); if (r) receive(r); } }, "Accept"),
          h("button", { type: "button", id: "draw-decline", onclick: async () => { const r = await action("draw", { action: "decline" }, "Cannot decline"); if (r) receive(r); } }, "Decline"),
        );
      }
    } else if (st.status === "ongoing" && st.draw_offer) {
      controls.append(h("span", { class: "note" }, `${SIDE_NAME[st.draw_offer]} offers a draw.`));
    }
    const se = st.series;
    if (se && st.status === "over" && !se.decided) {
      if (se.next && se.next !== st.id) {
        controls.append(h("a", { class: "button primary", id: "next-game", href: `#/game/${encodeURIComponent(se.next)}`, onclick: () => carryToken(se.next) }, "Go to the next game"));
      } else if (playing) {
        controls.append(
          h(
            "button",
            {
              type: "button",
              id: "next-game",
              class: "primary",
              onclick: async () => {
                const r = await action("next", {}, "Cannot start the next game");
                if (r && r.id) {
                  carryToken(r.id);
                  location.hash = `#/game/${encodeURIComponent(r.id)}`;
                }
              },
            },
            "Next game",
          ),
        );
      }
    }
  }

  function carryToken(next) {
    if (token && !tokenFor(next)) store.set("oware.token." + next, token);
  }

  function renderMoves(st) {
    clear(moves);
    fillMoveList(moves, st.moves, st.another_go, (m, i, again) => {
      const cap = st.captures && st.captures[i] ? `+${st.captures[i]}` : "";
      const label = `${m}${cap ? `, captures ${st.captures[i]}` : ""}${again ? ", another go" : ""}`;
      return h("a", { class: "mv" + (i === st.ply - 1 ? " last" : "") + (again ? " again" : ""), href: analyzeHash(st.start, st.moves, st.rules, i + 1, st.empty_capture), title: again ? "Another go. Analyze from here" : "Analyze from here", "aria-label": label }, m + cap);
    });
    if (!st.moves.length) moves.append(h("li", { class: "empty" }, "No moves yet."));
    clear(tools);
    tools.append(
      h("a", { class: "button", id: "ogn-download", href: `/api/ogn/${encodeURIComponent(st.id)}`, download: `oware-${st.id}.ogn` }, "Download OGN"),
      h("a", { class: "button", id: "analyze-game", href: analyzeHash(st.start, st.moves, st.rules, undefined, st.empty_capture) }, "Analyze"),
    );
  }

  function renderSeries(st) {
    const se = st.series;
    series.hidden = !se;
    clear(series);
    if (!se) return;
    const entry = (se.games || []).find((g) => g.id === st.id);
    let me = null;
    if (entry && seat && seat !== "both") me = seat === "south" ? entry.south : entry.south === "A" ? "B" : "A";
    const name = (x) => (me ? (x === me ? "You" : "Opponent") : `Player ${x}`);
    const sc = se.score || { A: 0, B: 0, draws: 0 };
    const games = se.games || [];
    const parts = [
      h("h2", null, "Series: " + seriesName(se.format)),
      h("p", { class: "score", id: "series-score" }, `${name("A")} ${sc.A} – ${sc.B} ${name("B")}` + (sc.draws ? ` (${sc.draws} draw${sc.draws === 1 ? "" : "s"})` : "")),
      se.decided ? h("p", { class: "note" }, se.winner ? `${name(se.winner)} won the series.` : "The series is drawn.") : null,
      h(
        "ol",
        { class: "games" },
        games.map((g, i) => {
          const label = `Game ${i + 1}`;
          const won = g.winner ? (g.winner === "S" ? g.south : g.south === "A" ? "B" : "A") : null;
          const ongoing = g.id === st.id && st.status === "ongoing";
          const result = won ? `${name(won)} won` : ongoing || (!g.winner && g.id === se.next && g.id !== st.id) ? "playing" : "draw";
          return h(
            "li",
            null,
            g.id === st.id ? h("b", null, label + " (this one)") : h("a", { href: `#/game/${encodeURIComponent(g.id)}`, onclick: () => carryToken(g.id) }, label),
            `: ${name(g.south)} South — ${result}`,
          );
        }),
      ),
    ];
    series.append(...parts.filter(Boolean));
  }

  function seriesName(f) {
    let m;
    if ((m = /^first-to:(\d+),lead:(\d+)$/.exec(f))) return `first to ${m[1]} wins, by ${m[2]} clear`;
    if ((m = /^first-to:(\d+)$/.exec(f))) return `first to ${m[1]} wins`;
    if ((m = /^best-of:(\d+)$/.exec(f))) return `best of ${m[1]}`;
    if ((m = /^straight:(\d+)$/.exec(f))) return `${m[1]} games straight`;
    return f;
  }

  function renderShare(st) {
    clear(share);
    const links = linksFor(id) || {};
    const base = location.origin + location.pathname;
    const watch = links.watch || `${base}#/game/${encodeURIComponent(st.id)}`;
    share.append(h("h2", null, "Share"));
    const row = (label, inputId, url) => {
      const input = h("input", { type: "text", id: inputId, readonly: true, value: url, "aria-label": label });
      const note = h("span", { class: "copied", "aria-live": "polite" });
      return h(
        "div",
        { class: "link" },
        h("label", { for: inputId }, label),
        h("div", { class: "copyrow" }, input, h("button", { type: "button", id: inputId + "-copy", onclick: async () => { note.textContent = (await copyText(url, input)) ? "Copied." : "Select and copy it."; } }, "Copy")),
        note,
      );
    };
    if (links.opponent) share.append(row("Opponent link: send it to the person who plays the other side", "opponent-link", links.opponent));
    share.append(row("Watch link: anyone can follow the game", "watch-link", watch));
  }

  function connect() {
    if (destroyed) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    conn.textContent = "connecting…";
    conn.dataset.state = "connecting";
    try {
      ws = new WebSocket(`${proto}//${location.host}/api/games/${encodeURIComponent(id)}/ws`);
    } catch (e) {
      scheduleRetry();
      return;
    }
    ws.onopen = () => {
      retry = 0;
      conn.textContent = "live";
      conn.dataset.state = "live";
    };
    ws.onmessage = (e) => {
      try {
        receive(JSON.parse(e.data));
      } catch (err) {
        /* not a state: ignore */
      }
    };
    ws.onclose = () => {
      ws = null;
      if (!destroyed) scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  function scheduleRetry() {
    const delay = Math.min(15000, 500 * 2 ** retry) * (0.75 + Math.random() * 0.5);
    retry += 1;
    conn.textContent = `reconnecting in ${Math.round(delay / 1000)} s…`;
    conn.dataset.state = "down";
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      // A reconnect also fetches the state, in case messages were missed.
      load().finally(connect);
    }, delay);
  }

  async function load() {
    try {
      const st = await api("GET", `/api/games/${encodeURIComponent(id)}` + (token ? `?token=${encodeURIComponent(token)}` : ""));
      if (st && "seat" in st) seat = st.seat;
      receive(st);
      return st;
    } catch (err) {
      if (err.status === 404) {
        status.textContent = "There is no such game.";
        destroyed = true;
      } else msg.textContent = "Cannot load the game: " + err.message;
      return null;
    }
  }

  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.key === "Escape" || e.key === " ") {
      if (board.animating) {
        e.preventDefault();
        board.skip();
      }
      return;
    }
    if (e.key.length !== 1 || !/[a-fA-F]/.test(e.key)) return;
    const st = latest;
    if (!st) return;
    if (board.animating) board.skip();
    let l = e.key;
    // Lenient: the letter of the side to move, whatever the case.
    const side = st.to_move;
    l = side === "S" ? l.toUpperCase() : l.toLowerCase();
    if (mySides().length === 1 && mySides()[0] !== side) l = e.key;
    e.preventDefault();
    play(l);
  };
  document.addEventListener("keydown", onKey);

  load().then((st) => {
    if (st) connect();
  });

  return {
    destroy() {
      destroyed = true;
      document.removeEventListener("keydown", onKey);
      clearTimeout(retryTimer);
      if (ws) {
        ws.onclose = null;
        ws.close();
      }
    },
  };
}

// ---------------------------------------------------------- analysis view

function analyzeView(app, params) {
  let rules = params.get("rules") || "abapa";
  if (!RULES.some(([r]) => r === rules)) rules = "abapa";
  // Mancala's empty capture.
  let empty = rules === "mancala" && params.get("empty") === "1";
  let start = params.get("position") || startOf(rules);
  if (!parsePosition(start)) start = startOf(rules);
  let moves = (params.get("moves") || "").replace(/[^A-Fa-f]/g, "").split("").filter(Boolean);
  let cursor = params.has("at") ? Math.max(0, Math.min(moves.length, parseInt(params.get("at"), 10) || 0)) : moves.length;
  // The server shares this time among the legal moves.
  let movetime = parseInt(store.get("oware.movetime") || "1000", 10) || 1000;
  let seq = 0;
  let shown = null; // { position, pits, stores, toMove }
  let queue = Promise.resolve();
  let destroyed = false;

  const msg = h("p", { class: "message", id: "message", role: "alert" });
  const status = h("p", { class: "status", id: "status", "aria-live": "polite" });
  const board = new Board({ onPit: (l) => playMove(l) });
  const posOut = h("input", { type: "text", id: "position", readonly: true, "aria-label": "Position string" });
  const paste = h("input", { type: "text", id: "paste", placeholder: START, autocomplete: "off", spellcheck: "false", "aria-label": "Paste a position string" });
  const rulesSel = select("an-rules", RULES, rules);
  const emptyBox = h("input", { type: "checkbox", id: "an-empty", checked: empty });
  const emptyField = h("div", { class: "field check" }, emptyBox, h("label", { for: "an-empty" }, "Empty capture (Mancala)"));
  emptyField.hidden = rules !== "mancala";
  const timeSel = select(
    "movetime",
    [300, 1000, 2000, 5000].map((t) => [String(t), `${t / 1000} s in all`]),
    String(movetime),
  );
  const evalBox = h("div", { class: "eval", id: "eval", "aria-live": "polite" });
  const table = h("tbody", { id: "analysis-moves" });
  const moveList = h("ol", { class: "movelist", id: "an-movelist", "aria-label": "Moves" });
  const nav = h("div", { class: "actions stepper" });
  const editor = h("div", { class: "editor", id: "editor" });

  const btn = (id, label, aria, fn) => h("button", { type: "button", id, "aria-label": aria, onclick: fn }, label);
  nav.append(
    btn("first", "« First", "First position", () => goto(0)),
    btn("prev", "‹ Back", "Previous move", () => goto(cursor - 1)),
    btn("next", "Next ›", "Next move", () => goto(cursor + 1, true)),
    btn("last", "Last »", "Last position", () => goto(moves.length)),
  );

  // The editor: pits as on the board, each with − and +.
  const edIn = [];
  const edStores = [];
  const spin = (input, label) =>
    h(
      "div",
      { class: "spin" },
      h("button", { type: "button", "aria-label": `${label}: one more`, onclick: () => bump(input, 1) }, "+"),
      input,
      h("button", { type: "button", "aria-label": `${label}: one less`, onclick: () => bump(input, -1) }, "−"),
    );
  const bump = (input, d) => {
    input.value = String(Math.max(0, Math.min(maxSeeds(rules), (parseInt(input.value, 10) || 0) + d)));
  };
  for (let i = 0; i < 12; i++) edIn[i] = h("input", { type: "number", min: "0", max: "84", inputmode: "numeric", id: "ed-" + letterOf(i), "aria-label": `pit ${letterOf(i)}` });
  for (let s = 0; s < 2; s++) edStores[s] = h("input", { type: "number", min: "0", max: "84", inputmode: "numeric", id: "ed-store-" + "SN"[s], "aria-label": `${SIDE_NAME["SN"[s]]}'s store` });
  const edSide = select("ed-side", [["S", "South to move"], ["N", "North to move"]], "S");
  const edRowN = h("div", { class: "ed-row" });
  const edRowS = h("div", { class: "ed-row" });
  for (let i = 11; i >= 6; i--) edRowN.append(h("div", { class: "ed-pit" }, h("span", { class: "letter" }, letterOf(i)), spin(edIn[i], "pit " + letterOf(i))));
  for (let i = 0; i < 6; i++) edRowS.append(h("div", { class: "ed-pit" }, spin(edIn[i], "pit " + letterOf(i)), h("span", { class: "letter" }, letterOf(i))));
  editor.append(
    edRowN,
    edRowS,
    h("div", { class: "grid" }, field("South's store", edStores[0]), field("North's store", edStores[1]), field("Side to move", edSide)),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", id: "ed-apply", class: "primary", onclick: () => {
        const p = positionString(edIn.map((x) => parseInt(x.value, 10) || 0), edStores.map((x) => parseInt(x.value, 10) || 0), edSide.value);
        setStart(p);
      } }, "Set this position"),
      h("button", { type: "button", id: "ed-empty", onclick: () => { for (const x of [...edIn, ...edStores]) x.value = "0"; } }, "Empty the board"),
      h("button", { type: "button", id: "ed-start", onclick: () => setStart(startOf(rules)) }, "Start position"),
    ),
  );

  app.append(
    h(
      "div",
      { class: "game analyze" },
      h(
        "div",
        { class: "play" },
        h("h1", null, "Analysis"),
        status,
        board.el,
        nav,
        msg,
        h("div", { class: "under" }, animationToggle()),
        h("section", { class: "panel" }, h("h2", null, "Engine"), h("p", { class: "hint" }, "Scores in seeds for the side to move; a win or loss is proven, in so many plies. Click a move to play it."), evalBox, h("div", { class: "tablewrap" }, h("table", { class: "analysis" }, h("thead", null, h("tr", null, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Depth"), h("th", { scope: "col" }, "Tables"), h("th", { scope: "col" }, "Principal variation"))), table)), h("div", { class: "grid" }, field("Rules", rulesSel), emptyField, field("Time", timeSel))),
      ),
      h(
        "aside",
        { class: "side" },
        h("section", { class: "panel" }, h("h2", null, "Moves"), moveList),
        h(
          "section",
          { class: "panel" },
          h("h2", null, "Position"),
          h("div", { class: "copyrow" }, posOut, h("button", { type: "button", id: "position-copy", onclick: () => copyText(posOut.value, posOut) }, "Copy")),
          h(
            "form",
            { class: "copyrow", onsubmit: (e) => { e.preventDefault(); const v = paste.value.trim(); if (!parsePosition(v)) { msg.textContent = "A position string looks like " + START + "."; return; } setStart(v); } },
            paste,
            h("button", { type: "submit", id: "paste-set" }, "Set"),
          ),
          h("details", { id: "edit-details" }, h("summary", null, "Edit the position"), editor),
        ),
      ),
    ),
  );

  rulesSel.addEventListener("change", () => {
    rules = rulesSel.value;
    emptyField.hidden = rules !== "mancala";
    empty = rules === "mancala" && emptyBox.checked;
    refresh();
  });
  emptyBox.addEventListener("change", () => {
    empty = rules === "mancala" && emptyBox.checked;
    refresh();
  });
  timeSel.addEventListener("change", () => {
    movetime = parseInt(timeSel.value, 10) || 1000;
    store.set("oware.movetime", String(movetime));
    refresh();
  });

  function setStart(p) {
    msg.textContent = "";
    start = p;
    moves = [];
    cursor = 0;
    paste.value = "";
    refresh();
  }

  function syncUrl() {
    const hash = analyzeHash(start, moves, rules, cursor, empty);
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  function goto(k, animate) {
    k = Math.max(0, Math.min(moves.length, k));
    if (k === cursor) return;
    const step = animate && k === cursor + 1 ? moves[cursor] : null;
    cursor = k;
    refresh(step);
  }

  function playMove(l) {
    msg.textContent = "";
    if (!shown) return;
    const legal = shown.legal || [];
    if (!legal.includes(l)) {
      msg.textContent = `${l} is not a legal move here.`;
      return;
    }
    moves = moves.slice(0, cursor).concat([l]);
    cursor += 1;
    refresh(l);
  }

  function renderMoves() {
    clear(moveList);
    // A move followed by one of the same side gave another go (Mancala).
    const goes = moves.map((m, i) => i + 1 < moves.length && sideOfPit(indexOf(moves[i + 1])) === sideOfPit(indexOf(m)));
    fillMoveList(moveList, moves, goes, (m, i, again) =>
      h("button", { type: "button", class: "mv" + (i === cursor - 1 ? " last" : "") + (again ? " again" : ""), "aria-current": i === cursor - 1 ? "step" : null, "aria-label": again ? `${m}, another go` : null, onclick: () => goto(i + 1) }, m),
    );
    if (!moves.length) moveList.append(h("li", { class: "empty" }, "No moves: click a pit to play one."));
  }

  function fillEditor(pos) {
    pos.pits.forEach((n, i) => (edIn[i].value = String(n)));
    pos.stores.forEach((n, s) => (edStores[s].value = String(n)));
    edSide.value = pos.toMove;
  }

  function refresh(animMove) {
    syncUrl();
    renderMoves();
    const my = ++seq;
    status.textContent = "Analyzing…";
    clear(table);
    clear(evalBox);
    evalBox.append(h("p", { class: "note" }, "The engine is thinking…"));
    board.el.dataset.busy = "1";
    const body = { position: start, moves: moves.slice(0, cursor).join("") || null, rules, movetime };
    if (rules === "mancala") body.empty_capture = empty;
    const req = api("POST", "/api/analyze", body);
    queue = queue.then(async () => {
      let res;
      try {
        res = await req;
      } catch (err) {
        if (my !== seq || destroyed) return;
        msg.textContent = "Cannot analyze: " + err.message;
        status.textContent = "";
        board.el.dataset.busy = "0";
        return;
      }
      if (my !== seq || destroyed) return;
      const pos = parsePosition(res.position);
      if (!pos) return;
      const before = shown;
      if (animMove && before && !skipAnimations()) {
        board.setMarks({ playable: [], last: animMove, toMove: null });
        await board.run(() => board.animateMove({ pits: before.pits, stores: before.stores }, animMove, null, { rules, empty }));
      }
      if (my !== seq || destroyed) return;
      render(res, pos);
    });
  }

  function render(res, pos) {
    const legal = (res.moves || []).map((m) => m.move);
    shown = { ...pos, legal, position: res.position };
    board.setAll(pos.pits, pos.stores);
    board.setMarks({ playable: legal, last: cursor > 0 ? moves[cursor - 1] : null, toMove: legal.length ? pos.toMove : null });
    board.el.dataset.ply = String(cursor);
    board.el.dataset.position = res.position;
    board.el.dataset.busy = "0";
    posOut.value = res.position;
    fillEditor(pos);
    const again = legal.length && cursor > 0 && sideOfPit(indexOf(moves[cursor - 1])) === pos.toMove;
    status.textContent = legal.length ? (again ? `Another go: ${SIDE_NAME[pos.toMove]} moves again` : `${SIDE_NAME[pos.toMove]} to move`) + (moves.length ? `, after move ${cursor} of ${moves.length}.` : ".") : `No legal move: the game is over (${pos.stores[0]}–${pos.stores[1]}).`;
    const tb = res.tables || null;
    const tbMoves = {};
    if (tb && Array.isArray(tb.moves)) for (const m of tb.moves) tbMoves[m.move] = m;
    clear(evalBox);
    const best = (res.moves || [])[0];
    if (best) evalBox.append(h("p", null, h("b", null, "Best: "), `${best.move}, ${formatScore(best)} for ${SIDE_NAME[pos.toMove]}`, ` (depth ${best.depth})`));
    if (tb) {
      evalBox.append(h("p", { class: "verdict", id: "verdict" }, h("b", null, "Tables: "), `${verdictText(tb)} for ${SIDE_NAME[pos.toMove]} — ${tableValue(tb)}` + (tb.seeds != null ? ` of ${tb.seeds} seeds` : "") + (tb.exact ? ", exact" : "")));
    } else if (res.tables_note) {
      evalBox.append(h("p", { class: "note", id: "tables-note" }, "Tables: " + res.tables_note + "."));
    } else {
      evalBox.append(h("p", { class: "note" }, "No table covers this position."));
    }
    clear(table);
    for (const m of res.moves || []) {
      const t = tbMoves[m.move];
      table.append(
        h(
          "tr",
          { "data-move": m.move },
          h("td", null, h("button", { type: "button", class: "mv", "aria-label": `play ${m.move}`, onclick: () => playMove(m.move) }, m.move + (t && t.captures ? `+${t.captures}` : ""))),
          h("td", { class: "num", "data-label": "Score" }, formatScore(m)),
          h("td", { class: "num", "data-label": "Depth" }, String(m.depth ?? "")),
          h("td", { "data-label": "Tables" }, t ? `${verdictText(t)} (${tableValue(t)})` : "—"),
          h("td", { class: "pv", "data-label": "Line" }, (m.pv || []).join(" ")),
        ),
      );
    }
  }

  function verdictText(v) {
    if (typeof v.verdict === "string" && v.verdict) return v.verdict.replace(/-/g, " ");
    return v.exact ? "exact" : "depends on history";
  }

  // gM and gN for the Abapa tables, the Romein & Bal score for Awari's.
  function tableValue(v) {
    if (v.gm != null || v.gn != null) return `gM ${v.gm}, gN ${v.gn}`;
    if (v.score != null) return `score ${v.score > 0 ? "+" : ""}${v.score}`;
    return "";
  }

  const onKey = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (e.key === "ArrowLeft") goto(cursor - 1);
    else if (e.key === "ArrowRight") goto(cursor + 1, true);
    else if (e.key === "Home") goto(0);
    else if (e.key === "End") goto(moves.length);
    else if (e.key.length === 1 && /[a-fA-F]/.test(e.key) && shown) {
      if (board.animating) board.skip();
      const l = shown.toMove === "S" ? e.key.toUpperCase() : e.key.toLowerCase();
      playMove(l);
    } else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);

  // Draw the start at once; the server's answer replaces it.
  const first = parsePosition(start);
  board.setAll(first.pits, first.stores);
  shown = null;
  refresh();

  return {
    destroy() {
      destroyed = true;
      seq += 1;
      document.removeEventListener("keydown", onKey);
    },
  };
}

// Errors are kept where a test (or a curious person) can read them.
window.__owareErrors = [];
window.addEventListener("error", (e) => window.__owareErrors.push(String(e.message)));
window.addEventListener("unhandledrejection", (e) => window.__owareErrors.push(String(e.reason)));

window.addEventListener("hashchange", route);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", route);
else route();
