// The new-game form, and the import of a game record.

import { LEVELS, MANCALA_SEEDS, RULES, START, api, field, h, parsePosition, select, startOf, store } from "./util.js";
import { analyzeHash, parseOgn, seriesRule } from "./records.js";

export function newGameView(app) {
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
      ["first-to-lead", "First to N wins, or K games ahead"],
      ["best-of", "Best of N games"],
      ["straight", "N wins in a row"],
    ],
    "",
  );
  const n = h("input", { type: "number", id: "series-n", min: "1", max: "99", value: "3", inputmode: "numeric" });
  const k = h("input", { type: "number", id: "series-k", min: "1", max: "99", value: "2", inputmode: "numeric" });
  const first = select(
    "first",
    [
      ["me", "Me"],
      ["opponent", "The opponent"],
      ["random", "Random"],
    ],
    "me",
  );
  const firstField = field("Who moves first?", first, "The first player sits South; in a series the first player alternates game by game.");
  const nameInput = (id) => h("input", { type: "text", id, maxlength: "40", autocomplete: "off", placeholder: "optional" });
  const southName = nameInput("south-name");
  const northName = nameInput("north-name");
  const clock = select(
    "time-control",
    [
      ["", "No clocks"],
      ["1+0", "1 min"],
      ["3+2", "3 min + 2 s a move"],
      ["5+3", "5 min + 3 s a move"],
      ["10+5", "10 min + 5 s a move"],
      ["15+10", "15 min + 10 s a move"],
      ["30+20", "30 min + 20 s a move"],
    ],
    "",
  );
  const seriesText = h("p", { class: "hint", id: "series-rule", "aria-live": "polite" });
  const start = h("input", { type: "text", id: "start", placeholder: START, autocomplete: "off", spellcheck: "false" });
  const levelField = field("Engine strength", level, "easy: depth 2 with random slips; medium: depth 6; hard: 0.3 s a move; full: 2 s a move (in Oware with the endgame tables).");
  const nField = field("N", n);
  const kField = field("K (lead)", k);
  const capField = h("div", { class: "field check" }, cap, h("label", { for: "move-cap" }, "End the game after 100 half-moves without a capture (each side takes its own seeds)"));
  const seedsField = field("Seeds a house at the start", seeds);
  const emptyField = h("div", { class: "field check" }, empty, h("label", { for: "empty-capture" }, "Empty capture (Kalah's rule)"));
  const mancalaNote = h("p", { class: "hint", id: "mancala-rules" }, "Arabic Mancala: sow into your own store (not the opponent's); a last seed in your store gives you another go; a last seed in an empty house of your row takes the house opposite (with the empty capture, it goes to your store even when that house is empty). The game ends when the seeds left are all in one row, or a store holds 25.");
  const seriesSet = h("fieldset", { id: "series-set" }, h("legend", null, "Series"), h("div", { class: "grid" }, field("Format", kind), nField, kField), seriesText);
  const seriesNote = h("p", { class: "hint", id: "series-note" }, "Series are played in Oware only.");
  const sync = () => {
    const mancala = rules.value === "mancala";
    levelField.hidden = south.value !== "engine" && north.value !== "engine";
    // "Me" and "the opponent" need one seat for the person here.
    firstField.hidden = [south.value, north.value].filter((v) => v === "human").length !== 1;
    const f = seriesFormat();
    seriesText.textContent = f ? seriesRule(f).rule : "";
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
  function seriesFormat() {
    const N = Math.max(1, Math.min(99, parseInt(n.value, 10) || 1));
    const K = Math.max(1, Math.min(99, parseInt(k.value, 10) || 1));
    if (kind.value === "first-to") return `first-to:${N}`;
    if (kind.value === "first-to-lead") return `first-to:${N},lead:${K}`;
    if (kind.value === "best-of") return `best-of:${N}`;
    if (kind.value === "straight") return `straight:${N}`;
    return null;
  }
  for (const c of [south, north, kind, rules, seeds]) c.addEventListener("change", sync);
  for (const c of [n, k]) c.addEventListener("input", sync);
  sync();

  const body = () => {
    const series = seriesFormat();
    const b = { rules: rules.value, move_cap: cap.checked ? 100 : null, south: south.value, north: north.value, level: level.value, series };
    if (!firstField.hidden) b.first = first.value;
    if (southName.value.trim() && south.value !== "engine") b.south_name = southName.value.trim();
    if (northName.value.trim() && north.value !== "engine") b.north_name = northName.value.trim();
    if (clock.value) b.time_control = clock.value;
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
    h("fieldset", null, h("legend", null, "Players"), h("div", { class: "grid" }, field("South", south), field("North", north), field("South's name", southName), field("North's name", northName)), firstField, levelField),
    h("div", { class: "grid" }, field("Clocks", clock, "Each side's time and what a move adds; the server runs the clocks, and a player whose time runs out loses.")),
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
