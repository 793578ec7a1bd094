// What every part of the page shares: the rules' names, small DOM and
// position helpers, the API client, the local store and a score's text.

const LETTERS = "ABCDEFabcdef";
export const START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
export const RULES = [
  ["abapa", "Abapa (default)"],
  ["grand-slam-forbidden", "Abapa, grand slam forbidden"],
  ["capture-and-end", "Abapa, capture and end"],
  ["capture-to-win", "Abapa, grand slam captures only to win"],
  ["awari", "Awari (Romein & Bal)"],
  ["mancala", "Arabic Mancala"],
];
export const MANCALA_SEEDS = [3, 4, 5, 7];
/** The start of a rule set: Oware's, or Mancala's with k seeds a house. */
export const startOf = (rules, k) => (rules === "mancala" ? Array(12).fill(k || 3).join("-") + "-0-0-S" : START);
/** The most seeds a position may hold (Mancala: seven a house). */
export const maxSeeds = (rules) => (rules === "mancala" ? 84 : 48);
export const LEVELS = ["easy", "medium", "hard", "full"];
export const REASONS = {
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
export const SIDE_NAME = { S: "South", N: "North" };

// ---------------------------------------------------------------- helpers

/** Builds an element: attributes set with setAttribute, children as text. */
export function h(tag, attrs, ...children) {
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

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export const letterOf = (i) => LETTERS[i];
export const indexOf = (l) => LETTERS.indexOf(l);
export const sideOfPit = (i) => (i < 6 ? "S" : "N");
export const other = (s) => (s === "S" ? "N" : "S");

export function parsePosition(str) {
  const m = /^\s*(\d+(?:-\d+){13})-([SN])\s*$/.exec(str || "");
  if (!m) return null;
  const nums = m[1].split("-").map(Number);
  return { pits: nums.slice(0, 12), stores: nums.slice(12, 14), toMove: m[2] };
}

export function positionString(pits, stores, toMove) {
  return [...pits, ...stores].join("-") + "-" + toMove;
}

export async function api(method, path, body) {
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

export const store = {
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

export function tokenFor(id) {
  return store.get("oware.token." + id);
}
export function linksFor(id) {
  try {
    return JSON.parse(store.get("oware.links." + id) || "null");
  } catch (e) {
    return null;
  }
}
export function skipAnimations() {
  return store.get("oware.skipAnimations") === "1";
}

/** Copies text, with a fallback for pages that are not a secure context. */
export async function copyText(text, input) {
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

export function formatScore(m) {
  if (!m) return "";
  const s = typeof m.score === "number" ? m.score : Number(m.score);
  const signed = (s > 0 ? "+" : "") + (Number.isInteger(s) ? String(s) : s.toFixed(2));
  if (m.result === "win" || m.result === "loss") {
    const by = m.bound ? (m.result === "win" ? "≥ " : "≤ ") : "";
    return `${m.result} ${by}${signed}` + (m.plies ? ` in ${m.plies}` : "");
  }
  return signed;
}

export function field(label, control, hint) {
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control, hint ? h("p", { class: "hint" }, hint) : null);
}

export function select(id, options, value) {
  return h("select", { id, name: id }, options.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
}
