// The board: pits, stores, seeds and the animation of a move.

import { SIDE_NAME, clear, h, indexOf, letterOf, sideOfPit, skipAnimations, store } from "./util.js";
import { capturedPits, mancalaCaptured, sow, sowMancala } from "./sowing.js";

export class Board {
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
      const letter = h("span", { class: "letter", "aria-hidden": "true" }, l);
      const btn = h("button", { type: "button", class: "pit pit-" + sideOfPit(i), "data-pit": l, "data-count": "0" });
      btn.addEventListener("click", () => {
        if (this.animating) {
          this.skip();
          return;
        }
        this.onPit(l);
      });
      this.pits[i] = { btn, seeds, count, cup, letter };
    }
    this.rowN = rowN;
    this.rowS = rowS;
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
    this.rowsEl = h("div", { class: "rows" });
    this.flipped = false;
    this.layout();
    this.el.addEventListener("click", (e) => {
      if (this.animating && !e.target.closest(".pit")) this.skip();
    });
  }

  /**
   * Lays the board out as one side sees it: that side's row at the bottom,
   * left to right (A … F for South, a … f for North), the letters under it,
   * the other row on top from the far end, and that side's store on the
   * right.
   */
  layout() {
    const [near, far] = this.flipped ? ["N", "S"] : ["S", "N"];
    const order = (s) => (s === "S" ? [0, 1, 2, 3, 4, 5] : [6, 7, 8, 9, 10, 11]);
    const nearRow = near === "S" ? this.rowS : this.rowN;
    const farRow = near === "S" ? this.rowN : this.rowS;
    for (const i of order(near)) {
      const p = this.pits[i];
      p.btn.append(p.cup, p.letter);
      nearRow.append(p.btn);
    }
    for (const i of order(far).reverse()) {
      const p = this.pits[i];
      p.btn.append(p.letter, p.cup);
      farRow.append(p.btn);
    }
    this.rowsEl.append(farRow, nearRow);
    this.el.append(this.stores[far].el, this.rowsEl, this.stores[near].el);
    this.el.dataset.flipped = this.flipped ? "1" : "0";
    this.el.dataset.bottom = near;
  }

  /** Shows the board from North's side (true) or South's (false). */
  setFlipped(f) {
    if (!!f === this.flipped) return;
    this.flipped = !!f;
    this.layout();
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
    const caught = mancala ? mancalaCaptured(pits, mover, last, game.empty) : capturedPits(pits, mover, last, hint, game.rules, stores[mi]);
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

/**
 * A "Flip board" button for `board`: the choice is kept under `key` in the
 * local store; `fallback()` gives the side when nothing is kept.
 */
export function flipControl(board, key, fallback) {
  const kept = () => store.get(key);
  const apply = () => {
    const k = kept();
    board.setFlipped(k === null ? fallback() : k === "N");
    btn.setAttribute("aria-pressed", board.flipped ? "true" : "false");
  };
  const btn = h(
    "button",
    {
      type: "button",
      id: "flip",
      class: "flip",
      title: "Turn the board around",
      onclick: () => {
        store.set(key, board.flipped ? "S" : "N");
        apply();
      },
    },
    "⇅ Flip board",
  );
  apply();
  return { el: btn, apply };
}

export function animationToggle() {
  const box = h("input", {
    type: "checkbox",
    id: "skip-anim",
    checked: skipAnimations(),
    onchange: (e) => store.set("oware.skipAnimations", e.target.checked ? "1" : "0"),
  });
  return h("label", { class: "toggle" }, box, " Skip animations");
}
