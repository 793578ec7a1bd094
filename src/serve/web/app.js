// The page of `oware serve`: a new-game form, the game board (live over a
// WebSocket) and an analysis board, for Oware and Arabic Mancala. No
// framework, no build step. Everything the server sends goes into the DOM
// as text (textContent / attributes), never as HTML.

import "./errors.js";
import { clear } from "./util.js";
import { newGameView } from "./newgame.js";
import { gameView } from "./game.js";
import { analyzeView } from "./analysis.js";

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

window.addEventListener("hashchange", route);
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", route);
else route();
