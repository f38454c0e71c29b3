// The arbiters' console (docs/console.md): one page for every board of a server (eboardd --http,
// or eboard-hub for the hall). It follows the server's live feed (/api/live, a WebSocket: a
// `state` snapshot on every (re)connection, then a `board` message per change) and
// sends arbiter actions as client API requests (/api/request). Plain code, no build step.
"use strict";

const boards = new Map(); // id -> board object as the server sends it (docs/console.md)
let loggedIn = false;
let seenAlerts = new Set(); // alert ids already shown (a new one beeps)
let firstState = true;

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "href" || k === "type")
      e.setAttribute(k, String(v));
    else e[k] = v;
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
};

// ---- clocks ------------------------------------------------------------------------------
// A board's clock is {white_ms, black_ms, running: "white"|"black"|null}; the page counts the
// running side down from the moment the message arrived, as the clock does.
function clockMs(board, side) {
  const c = board.clock;
  if (!c) return null;
  let ms = side === "white" ? c.white_ms : c.black_ms;
  if (c.running === side) ms -= performance.now() - board.receivedAt;
  return Math.max(0, ms);
}
function formatMs(ms) {
  if (ms === null || ms === undefined) return "–";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}`;
}
function parseClock(text) {
  const parts = text.trim().split(":").map(Number);
  if (!parts.length || parts.some((p) => !Number.isFinite(p) || p < 0)) return null;
  return parts.reduce((acc, p) => acc * 60 + p, 0) * 1000;
}

// ---- the diagram -------------------------------------------------------------------------
const glyph = { K: "♔", Q: "♕", R: "♖", B: "♗", N: "♘", P: "♙", k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const pieceName = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };
function diagram(fen) {
  const d = el("div", { class: "diagram", role: "img" });
  const rows = (fen || "8/8/8/8/8/8/8/8").split(" ")[0].split("/");
  const white = [], black = [];
  rows.forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/[1-8]/.test(ch)) {
        for (let i = 0; i < Number(ch); i++, f++) d.append(el("span", { class: (r + f) % 2 ? "d" : "l" }));
      } else {
        const square = "abcdefgh"[f] + (8 - r);
        (ch === ch.toUpperCase() ? white : black).push(`${pieceName[ch.toLowerCase()]} ${square}`);
        d.append(el("span", { class: (r + f) % 2 ? "d" : "l", "aria-hidden": "true" }, glyph[ch] || "?"));
        f++;
      }
    }
  });
  d.setAttribute("aria-label", `White: ${white.join(", ") || "no pieces"}. Black: ${black.join(", ") || "no pieces"}.`);
  return d;
}

// ---- alerts ------------------------------------------------------------------------------
function openAlerts() {
  const all = [];
  for (const b of boards.values()) for (const a of b.alerts || []) if (a.open) all.push({ board: b, alert: a });
  return all.sort((x, y) => (y.alert.time || 0) - (x.alert.time || 0) || y.alert.id - x.alert.id);
}
function alertText(board, a) {
  const parts = [`${board.label || board.id}: ${a.kind.replace(/_/g, " ")} (Art. ${a.article})`, a.text];
  if (a.count) parts.push(`illegal move no. ${a.count}`);
  if (a.penalty) parts.push(`penalty: ${a.penalty}`);
  if (a.squares && a.squares.length) parts.push(`squares ${a.squares.join(" ")}`);
  if (a.winnability === "undecided") parts.push("winnability undecided");
  return parts.filter(Boolean).join(" — ");
}
function beep() {
  try {
    const ctx = beep.ctx || (beep.ctx = new AudioContext());
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 880;
    g.gain.value = 0.1;
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.25);
  } catch (_) { /* no sound where the browser refuses it */ }
}
function renderAlerts() {
  const list = $("alerts");
  list.replaceChildren();
  let fresh = false;
  for (const { board, alert } of openAlerts()) {
    if (!seenAlerts.has(alert.id)) { seenAlerts.add(alert.id); fresh = true; }
    const time = alert.time ? new Date(alert.time).toLocaleTimeString() : "";
    const li = el("li", { "data-alert-kind": alert.kind, "data-board": board.id, "data-alert-id": alert.id },
      el("time", {}, time), " ", alertText(board, alert), " ");
    const open = el("a", { href: `#board=${encodeURIComponent(board.id)}` }, "Open board");
    li.append(open, " ");
    if (loggedIn) {
      const ack = el("button", { type: "button" }, "Acknowledge");
      ack.addEventListener("click", () => post("/api/ack", { board: board.id, alert: alert.id }));
      li.append(ack);
    }
    list.append(li);
  }
  $("alert-count").textContent = `(${list.children.length} open)`;
  if (fresh && !firstState) beep();
}

// ---- boards ------------------------------------------------------------------------------
function boardCard(b) {
  const open = (b.alerts || []).filter((a) => a.open).length;
  const card = el("article", { class: "board", "data-board": b.id, "data-fen": b.fen || "", "data-state": b.state,
    "data-open-alerts": open, "aria-labelledby": `title-${b.id}` });
  const title = el("h3", { id: `title-${b.id}` },
    el("a", { href: `#board=${encodeURIComponent(b.id)}` }, b.label || b.id));
  const players = el("p", { class: "players" }, `${b.white || "White"} – ${b.black || "Black"}`);
  const clocks = el("p", { class: "clocks" },
    el("span", { class: "clock", "data-side": "white", "data-running": b.clock?.running === "white" }, formatMs(clockMs(b, "white"))),
    el("span", { class: "clock", "data-side": "black", "data-running": b.clock?.running === "black" }, formatMs(clockMs(b, "black"))));
  const last = (b.moves || []).slice(-4).map((m) => `${Math.ceil(m.ply / 2)}${m.ply % 2 ? "." : "…"} ${m.san}`).join("  ");
  const parts = [b.state, batteryText(b.battery), b.result ? `result ${b.result}` : null,
    open ? `${open} open alert${open > 1 ? "s" : ""}` : null].filter(Boolean);
  const state = el("p", { class: "board-state" }, ...parts.flatMap((p, i) => (i ? [" · ", p] : [p])));
  if (b.battery) {
    card.dataset.battery = b.battery.percent;
    card.dataset.batteryLow = b.battery.low;
  }
  card.append(title, players, diagram(b.fen), clocks, el("p", { class: "last-moves" }, last || "no moves yet"), state);
  return card;
}
// The board's battery as reported (docs/console.md): a low one (the server says so) is marked
// in colour and with a sign, and says "low" in its text for screen readers.
function batteryText(battery) {
  if (!battery) return null;
  const charging = battery.charging ? ", charging" : "";
  if (!battery.low) return el("span", { class: "battery" }, `battery ${battery.percent}%${charging}`);
  return el("span", { class: "battery", "data-low": "true" },
    el("span", { "aria-hidden": "true" }, "⚠ "), `battery low: ${battery.percent}%${charging}`);
}
function sortedBoards() {
  return [...boards.values()].sort((a, b) => (a.number ?? 1e9) - (b.number ?? 1e9) || a.id.localeCompare(b.id));
}
function renderBoards() {
  const grid = $("boards");
  grid.replaceChildren(...sortedBoards().map(boardCard));
}
function renderBoardPage() {
  const m = location.hash.match(/^#board=(.*)$/);
  const b = m ? boards.get(decodeURIComponent(m[1])) : null;
  $("board-page").hidden = !b;
  $("boards-section").hidden = !!b;
  if (!b) return;
  $("board-page-title").textContent = `${b.label || b.id}: ${b.white || "White"} – ${b.black || "Black"}`;
  $("board-page-diagram").replaceChildren(boardCard(b));
  $("board-page-moves").replaceChildren(...(b.moves || []).map((mv) => el("li", { value: mv.ply },
    `${mv.san}${mv.status === "made" ? " (made, not completed)" : ""}${mv.clock ? ` [${formatMs(mv.ply % 2 ? mv.clock.white_ms : mv.clock.black_ms)}]` : ""}`)));
  $("board-page-alerts").replaceChildren(...(b.alerts || []).map((a) => el("li", { "data-alert-id": a.id },
    `${alertText(b, a)}${a.open ? "" : " (closed)"}`)));
  $("actions").hidden = !loggedIn;
  $("actions-locked").hidden = loggedIn;
}
function render() {
  renderAlerts();
  renderBoards();
  renderBoardPage();
  $("login").hidden = loggedIn;
  $("logout").hidden = !loggedIn;
}
setInterval(() => {
  for (const span of document.querySelectorAll(".clock[data-running='true']")) {
    const b = boards.get(span.closest("[data-board]").dataset.board);
    if (b) span.textContent = formatMs(clockMs(b, span.dataset.side));
  }
}, 250);

// ---- the event stream --------------------------------------------------------------------
function setConnected(yes) {
  const c = $("connection");
  c.dataset.connected = String(yes);
  c.textContent = yes ? "Live" : "Disconnected — reconnecting…";
}
// The server's live feed: a WebSocket at /api/live whose first message after every (re)connection
// is the whole state, then one message per board that changed. The page reconnects by itself
// (0.5 s, doubling to 10 s) and shows that it is disconnected meanwhile.
let retryMs = 500;
function connect() {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/live`);
  ws.addEventListener("message", (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === "state") {
      boards.clear();
      const now = performance.now();
      for (const b of msg.boards) boards.set(b.id, Object.assign(b, { receivedAt: now }));
      loggedIn = !!msg.logged_in;
      $("server-name").textContent = msg.server ? `— ${msg.server}` : "";
      render();
      firstState = false;
      retryMs = 500;
      setConnected(true);
    } else if (msg.type === "board") {
      const b = msg.board;
      b.receivedAt = performance.now();
      boards.set(b.id, b);
      render();
    }
  });
  ws.addEventListener("close", () => {
    setConnected(false);
    setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 10000);
  });
}

// ---- requests ----------------------------------------------------------------------------
async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), credentials: "same-origin" });
  let reply = {};
  try { reply = await r.json(); } catch (_) { /* an empty or non-JSON answer */ }
  return { status: r.status, reply };
}
$("login").addEventListener("submit", async (e) => {
  e.preventDefault();
  const { status, reply } = await post("/api/login", { password: $("password").value });
  $("password").value = "";
  loggedIn = status === 200;
  $("login-state").textContent = loggedIn ? "Logged in" : (reply.message || "Refused");
  render();
});
$("logout").addEventListener("click", async () => {
  await post("/api/logout", {});
  loggedIn = false;
  render();
});
$("actions").addEventListener("click", async (e) => {
  const action = e.target.dataset?.action;
  if (!action) return;
  const m = location.hash.match(/^#board=(.*)$/);
  if (!m) return;
  const board = decodeURIComponent(m[1]);
  let request;
  if (action === "result") request = { class: "RESULT", board, result: $("result-value").value };
  if (action === "penalty-apply") request = { class: "PENALTY", board, decision: "apply" };
  if (action === "penalty-decline") request = { class: "PENALTY", board, decision: "decline" };
  if (action === "clock") {
    const w = parseClock($("clock-white").value), b = parseClock($("clock-black").value);
    if (w === null || b === null) { $("action-reply").textContent = "Times as h:mm:ss"; return; }
    request = { class: "CLOCK", board, white_ms: w, black_ms: b };
  }
  if (action === "takeback") request = { class: "TAKEBACK", board, ply: Number($("takeback-ply").value) };
  if (action === "position") request = { class: "SET_POSITION", board, fen: $("position-fen").value.trim() };
  const { status, reply } = await post("/api/request", request);
  $("action-reply").textContent = status === 200 && reply.class === "OK"
    ? `${request.class}: done${reply.penalty ? ` (${reply.penalty})` : ""}`
    : `${request.class} refused: ${reply.message || status}${reply.code ? ` (${reply.code})` : ""}`;
});
window.addEventListener("hashchange", renderBoardPage);
connect();
