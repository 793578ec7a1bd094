// The analysis board: any position, with the engine's and the tables'
// verdicts.

import { REASONS, RULES, SIDE_NAME, START, api, clear, copyText, field, formatScore, h, indexOf, letterOf, maxSeeds, parsePosition, positionString, select, sideOfPit, skipAnimations, startOf, store } from "./util.js";
import { Board, animationToggle, flipControl } from "./board.js";
import { analyzeHash, fillMoveList } from "./records.js";

export function analyzeView(app, params) {
  let rules = params.get("rules") || "abapa";
  if (!RULES.some(([r]) => r === rules)) rules = "abapa";
  // Mancala's empty capture.
  let empty = rules === "mancala" && params.get("empty") === "1";
  const asked = params.get("position");
  if (asked !== null && asked.trim() !== "" && asked.trim() !== "startpos" && !parsePosition(asked)) {
    // A position in the address that is not one: say so, rather than
    // analysing something else.
    app.append(
      h(
        "section",
        { class: "panel not-found", id: "bad-position" },
        h("h1", null, "Not a position"),
        h("p", { role: "alert" }, `The address asks for the position “${asked.slice(0, 120)}”, which is not a position string. A position string looks like ${startOf(rules)}: the twelve pits from A to f, the two stores and the side to move.`),
        h("p", null, h("a", { class: "button primary", href: "#/analyze" }, "Analyse the start position")),
      ),
    );
    return { destroy() {} };
  }
  let start = asked && parsePosition(asked) ? asked.trim() : startOf(rules);
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
  const flip = flipControl(board, "oware.flip.analyze", () => false);
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
  // The evaluation bar: South's share, from the best move's score.
  const barFill = h("div", { class: "evalbar-fill" });
  const barText = h("span", { class: "evalbar-text" }, "…");
  const evalBar = h("div", { class: "evalbar", id: "evalbar", role: "img", "aria-label": "Evaluation" }, barFill, barText);
  // The graph of the score over the line, South's view.
  const graph = h("div", { class: "graph", id: "score-graph" });
  const graphNote = h("p", { class: "hint", id: "graph-note" });
  const graphPanel = h("section", { class: "panel", id: "graph-panel", hidden: true }, h("h2", null, "Score over the game"), graph, graphNote);
  let caps = []; // the seeds each move of the line captured, from the server
  let capsOf = "";
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
        evalBar,
        board.el,
        nav,
        msg,
        h("div", { class: "under" }, flip.el, animationToggle()),
        h("section", { class: "panel" }, h("h2", null, "Engine"), h("p", { class: "hint" }, "Scores in seeds for the side to move; a win or loss is proven, in so many plies. Click a move to play it."), evalBox, h("div", { class: "tablewrap" }, h("table", { class: "analysis" }, h("thead", null, h("tr", null, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Depth"), h("th", { scope: "col" }, "Tables"), h("th", { scope: "col" }, "Principal variation"))), table)), h("div", { class: "grid" }, field("Rules", rulesSel), emptyField, field("Time", timeSel))),
      ),
      h(
        "aside",
        { class: "side" },
        h("section", { class: "panel" }, h("h2", null, "Moves"), moveList),
        graphPanel,
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
    const known = capsOf === moves.join("");
    fillMoveList(moveList, moves, goes, (m, i, again) => {
      const c = known && caps[i] ? caps[i] : 0;
      const label = `${m}${c ? `, captures ${c}` : ""}${again ? ", another go" : ""}`;
      return h("button", { type: "button", class: "mv" + (i === cursor - 1 ? " last" : "") + (again ? " again" : ""), "aria-current": i === cursor - 1 ? "step" : null, "aria-label": label, onclick: () => goto(i + 1) }, m + (c ? `+${c}` : ""));
    });
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
    drawGraph();
    computeGraph();
    const my = ++seq;
    status.textContent = "Analyzing…";
    clear(table);
    clear(evalBox);
    evalBox.append(h("p", { class: "note" }, "The engine is thinking…"));
    board.el.dataset.busy = "1";
    const body = { position: start, moves: moves.join("") || null, at: cursor, rules, movetime };
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
    if (Array.isArray(res.captures) && res.captures.length === moves.length) {
      caps = res.captures;
      capsOf = moves.join("");
      renderMoves();
    }
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
    status.textContent = legal.length ? (again ? `Another go: ${SIDE_NAME[pos.toMove]} moves again` : `${SIDE_NAME[pos.toMove]} to move`) + (moves.length ? `, after move ${cursor} of ${moves.length}.` : ".") : `No legal move: the game is over (${pos.stores[0]}–${pos.stores[1]})` + (res.result && REASONS[res.result.reason] ? `, ${REASONS[res.result.reason]}.` : ".");
    setBar(southValue(res, pos.toMove));
    drawGraph();
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

  /**
   * The value of an analysis for South: { v: seeds (±12 at most on the
   * bar), text, end: "S"/"N"/"draw" for a proven or final result }.
   */
  function southValue(res, toMove) {
    const sign = toMove === "N" ? -1 : 1;
    if (res.result && !(res.moves || []).length) {
      const [a, b] = res.result.stores || res.stores || [0, 0];
      return { v: Math.max(-12, Math.min(12, a - b)), text: res.result.winner ? `${SIDE_NAME[res.result.winner]} won` : "Drawn", end: res.result.winner || "draw" };
    }
    const best = (res.moves || [])[0];
    if (!best) return null;
    const s = (typeof best.score === "number" ? best.score : Number(best.score)) * sign;
    if (best.result === "win" || best.result === "loss") {
      const southWins = (best.result === "win") === (toMove === "S");
      return { v: southWins ? 12 : -12, text: `${southWins ? "South" : "North"} wins`, end: southWins ? "S" : "N" };
    }
    if (best.result === "draw") return { v: 0, text: "Draw", end: "draw" };
    return { v: Math.max(-12, Math.min(12, s)), text: `${s > 0 ? "+" : ""}${Number.isInteger(s) ? s : s.toFixed(2)} for South` };
  }

  function setBar(val) {
    if (!val) return;
    const share = 50 + (val.v / 12) * 50;
    barFill.style.width = share.toFixed(1) + "%";
    barText.textContent = val.text;
    evalBar.dataset.score = String(val.v);
    evalBar.setAttribute("aria-label", "Evaluation: " + val.text);
  }

  // The graph: each position of the line searched briefly, one after
  // another; the table verdicts marked.
  let graphKey = null;
  let graphGen = 0;
  let graphVals = [];

  async function computeGraph() {
    const line = moves.join("");
    const key = JSON.stringify([start, rules, empty, line]);
    if (key === graphKey) return;
    graphKey = key;
    const gen = ++graphGen;
    const n = moves.length;
    graphVals = new Array(n + 1).fill(null);
    graphNote.textContent = "";
    graphPanel.hidden = n === 0;
    graph.dataset.done = "0";
    drawGraph();
    if (!n) return;
    if (n > 400) {
      graphNote.textContent = "The line is too long to chart.";
      return;
    }
    for (let k = 0; k <= n; k++) {
      if (gen !== graphGen || destroyed) return;
      const body = { position: start, moves: line, at: k, rules, movetime: 100 };
      if (rules === "mancala") body.empty_capture = empty;
      let res;
      try {
        res = await api("POST", "/api/analyze", body);
      } catch (err) {
        if (gen !== graphGen || destroyed) return;
        graphNote.textContent = "The chart stopped: " + err.message;
        return;
      }
      if (gen !== graphGen || destroyed) return;
      const pos = parsePosition(res.position);
      const val = pos ? southValue(res, pos.toMove) : null;
      if (val && res.tables) {
        val.mark = `Tables: ${verdictText(res.tables)} for ${SIDE_NAME[pos.toMove]}`;
        val.verdict = res.tables.verdict || "";
      }
      graphVals[k] = val;
      drawGraph();
    }
    graph.dataset.done = "1";
  }

  function drawGraph() {
    const n = graphVals.length - 1;
    clear(graph);
    if (n < 1) return;
    const W = 600;
    const H = 140;
    const pad = 8;
    const x = (k) => pad + (k / n) * (W - 2 * pad);
    const y = (v) => H / 2 - (v / 12) * (H / 2 - pad);
    const NS = "http://www.w3.org/2000/svg";
    const el = (tag, attrs, text) => {
      const e = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
      if (text) e.append(document.createTextNode(text));
      return e;
    };
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "graph-svg", role: "img", "aria-label": "The score for South over the game, from the engine; marks where the tables know the position" });
    svg.append(el("rect", { x: 0, y: 0, width: W, height: H / 2, class: "graph-south" }), el("rect", { x: 0, y: H / 2, width: W, height: H / 2, class: "graph-north" }));
    svg.append(el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, class: "graph-zero" }));
    const pts = [];
    graphVals.forEach((val, k) => {
      if (val) pts.push(`${x(k).toFixed(1)},${y(val.v).toFixed(1)}`);
    });
    if (pts.length) svg.append(el("polyline", { points: pts.join(" "), class: "graph-line" }));
    svg.append(el("line", { x1: x(cursor), x2: x(cursor), y1: 0, y2: H, class: "graph-cursor" }));
    graphVals.forEach((val, k) => {
      if (!val) return;
      const title = `After move ${k}: ${val.text}` + (val.mark ? `. ${val.mark}` : "");
      const dot = el("circle", { cx: x(k).toFixed(1), cy: y(val.v).toFixed(1), r: val.mark ? 5 : 2.5, class: "graph-point" + (val.mark ? " tb-mark" : "") + (val.end ? " end-" + val.end : ""), "data-ply": k }, null);
      dot.append(el("title", {}, title));
      svg.append(dot);
      // A wide strip to click on: the position after move k.
      const hit = el("rect", { x: (x(k) - (W - 2 * pad) / n / 2).toFixed(1), y: 0, width: ((W - 2 * pad) / n).toFixed(1), height: H, class: "graph-hit" });
      hit.append(el("title", {}, title));
      hit.addEventListener("click", () => goto(k));
      svg.append(hit);
    });
    graph.append(svg);
    graph.dataset.points = String(graphVals.filter(Boolean).length);
    graph.dataset.marks = String(graphVals.filter((v) => v && v.mark).length);
    const marks = graphVals.filter((v) => v && v.mark).length;
    if (!graphNote.textContent.startsWith("The ")) graphNote.textContent = `${graphVals.filter(Boolean).length} of ${n + 1} positions searched (0.1 s each); above the line South is ahead.` + (marks ? ` Big dots: ${marks} positions the endgame tables know.` : "");
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
