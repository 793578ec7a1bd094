// The game board: a game by its link, live over a WebSocket.

import { REASONS, SIDE_NAME, api, clear, copyText, h, indexOf, linksFor, other, sideOfPit, skipAnimations, store, tokenFor } from "./util.js";
import { Board, animationToggle, flipControl } from "./board.js";
import { analyzeHash, fillMoveList, rulesText, seriesRule } from "./records.js";

export function gameView(app, id, params) {
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
  // The clocks, as the server last sent them, counted down here between
  // its messages.
  const clockEl = { S: h("span", { class: "clock", id: "clock-S" }), N: h("span", { class: "clock", id: "clock-N" }) };
  const clocks = h("div", { class: "clocks", id: "clocks", hidden: true }, clockEl.N, clockEl.S);
  let clockAt = 0;
  const tick = setInterval(() => drawClocks(), 250);
  const board = new Board({ onPit: (l) => play(l) });
  const controls = h("div", { class: "controls", id: "controls" });
  const series = h("section", { class: "series panel", id: "series", hidden: true });
  const share = h("section", { class: "share panel", id: "share" });
  const moves = h("ol", { class: "movelist", id: "movelist", "aria-label": "Moves" });
  const tools = h("div", { class: "actions" });
  // A player of North sees the board from North's side, unless flipped.
  const flip = flipControl(board, "oware.flip." + id, () => seat === "north");

  app.append(
    h(
      "div",
      { class: "game" },
      h("div", { class: "play" }, h("div", { class: "headline" }, status, conn), players, clocks, board.el, controls, msg, h("div", { class: "under" }, flip.el, animationToggle(), h("span", { class: "hint" }, "Click a pit or type its letter. Click the board to skip an animation."))),
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
    // Both players go to the rematch once it is made.
    const rematchNew = st.rematch && (!latest || !latest.rematch) && latest && mySides().length > 0;
    latest = st;
    clockAt = Date.now();
    if (rematchNew) {
      carryToken(st.rematch);
      location.hash = `#/game/${encodeURIComponent(st.rematch)}`;
      return;
    }
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

  function drawClocks() {
    const st = latest;
    const c = st && st.clock;
    clocks.hidden = !c;
    if (!c) return;
    for (const s of ["S", "N"]) {
      let ms = s === "S" ? c.south_ms : c.north_ms;
      const running = c.running === s && st.status === "ongoing";
      if (running) ms = Math.max(0, ms - (Date.now() - clockAt));
      const secs = Math.ceil(ms / 1000);
      const t = ms < 10000 ? (ms / 1000).toFixed(1) : `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
      const who = playerLabel(st, s);
      clockEl[s].textContent = `${SIDE_NAME[s]} · ${who}: ${t}`;
      clockEl[s].dataset.ms = String(ms);
      clockEl[s].classList.toggle("running", running);
      clockEl[s].classList.toggle("low", ms < 10000);
    }
  }

  function playerLabel(st, s) {
    const p = kindOf(st, s);
    const mine = mySides().includes(s) && p.kind !== "engine";
    if (p.kind === "engine") return `${p.name || "Engine"} (${p.level || "?"})`;
    if (p.name) return mine && seat !== "both" ? `${p.name} (you)` : p.name;
    if (mine) return "You";
    const player = mySides().length > 0;
    if (p.kind === "link" && !p.joined) return "Opponent (link not opened yet)";
    if (player) return "Opponent";
    return p.kind === "link" ? "Player (by link)" : "Player";
  }

  function render() {
    const st = state;
    if (!st) return;
    flip.apply();
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
      let why = r.reason === "time" ? "on time" : REASONS[r.reason] || r.reason || "";
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

    drawClocks();
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
    if (st.status === "over" && (!se || se.decided)) {
      // After a game: a rematch (colours swapped, once the opponent agrees) and a new game.
      const offer = st.rematch_offer;
      const me = mySides();
      if (st.rematch) {
        controls.append(h("a", { class: "button primary", id: "rematch-go", href: `#/game/${encodeURIComponent(st.rematch)}`, onclick: () => carryToken(st.rematch) }, "Go to the rematch"));
      } else if (playing && !se) {
        const ask = async (act) => {
          const r = await action("rematch", { action: act }, "Rematch");
          if (r && r.id && r.id !== id) {
            carryToken(r.id);
            location.hash = `#/game/${encodeURIComponent(r.id)}`;
          } else if (r) receive(r);
        };
        if (offer && me.includes(offer) && seat !== "both") controls.append(h("span", { class: "note", id: "rematch-offered" }, "You offered a rematch."));
        else if (offer) {
          controls.append(
            h("span", { class: "note" }, `${SIDE_NAME[offer]} offers a rematch.`),
            h("button", { type: "button", id: "rematch-accept", class: "primary", onclick: () => ask("accept") }, "Accept the rematch"),
            h("button", { type: "button", id: "rematch-decline", onclick: () => ask("decline") }, "Decline"),
          );
        } else controls.append(h("button", { type: "button", id: "rematch", class: "primary", onclick: () => ask("offer") }, "Rematch"));
      }
      controls.append(h("a", { class: "button", id: "new-game", href: "#/" }, "New game"));
    }
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
      h("h2", null, "Series: " + seriesRule(se.format).name),
      h("p", { class: "hint", id: "series-rule" }, seriesRule(se.format).rule),
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
        destroyed = true;
        clear(app);
        app.append(
          h(
            "section",
            { class: "panel not-found", id: "not-found" },
            h("h1", null, "No such game"),
            h("p", null, `There is no game “${id}” on this server: the link may be mistyped, or the game was made on another server.`),
            h("p", null, h("a", { class: "button primary", id: "not-found-new", href: "#/" }, "Start a new game")),
          ),
        );
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
      clearInterval(tick);
      document.removeEventListener("keydown", onKey);
      clearTimeout(retryTimer);
      if (ws) {
        ws.onclose = null;
        ws.close();
      }
    },
  };
}
