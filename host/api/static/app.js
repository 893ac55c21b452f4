// The dashboard: renders the active game's snapshot, pushed over the WebSocket; changes go
// through the REST API with the table's token. No framework, no build step.
"use strict";

const $ = (sel) => document.querySelector(sel);
const state = { snap: null, lang: "en", token: "", selected: null, clockBase: null, follow: "live", calib: null };
const SVG = "http://www.w3.org/2000/svg";

function t(key) {
  const table = window.I18N[state.lang] || window.I18N.en;
  return table[key] ?? window.I18N.en[key] ?? key;
}

function applyLanguage(lang) {
  state.lang = window.I18N[lang] ? lang : "en";
  localStorage.setItem("tableref.lang", state.lang);
  document.documentElement.lang = state.lang;
  $("#lang").value = state.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
  render();
  loadGames();
}

function preferredLanguage() {
  const saved = localStorage.getItem("tableref.lang");
  if (saved) return saved;
  const nav = (navigator.language || "en").toLowerCase();
  if (nav.startsWith("zh")) return "zh-Hant";
  if (nav.startsWith("pl")) return "pl";
  return "en";
}

// -- talking to the API ----------------------------------------------------------------------
async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state.token) headers.Authorization = `Bearer ${state.token}`;
  const res = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    let detail = data && data.detail;
    if (Array.isArray(detail)) detail = detail.map((d) => `${d.loc.join(".")}: ${d.msg}`).join("; ");
    if (res.status === 401) detail = t("needs_token");
    throw new Error(detail || `${res.status}`);
  }
  return data;
}

async function act(method, path, body) {
  try {
    const data = await api(method, path, body);
    if (data && typeof data.message === "string") showMessage(data.message);
    return data;
  } catch (err) {
    showMessage(err.message, true);
    return null;
  }
}

function showMessage(text, error = false) {
  const el = $("#message");
  el.textContent = text;
  el.classList.toggle("error", error);
}

function gamePath(suffix) {
  return `/api/games/${state.snap.game_id}${suffix}`;
}

// -- live updates ----------------------------------------------------------------------------
function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/api/ws`);
  ws.onopen = () => setConn(true);
  ws.onclose = () => { setConn(false); setTimeout(connect, 1000); };
  ws.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    const snap = data.snapshot;
    if (snap && (state.follow === "live" || Number(state.follow) === snap.game_id)) update(snap, data.kind);
    if (["start", "hello", "event", "undo", "status"].includes(data.kind)) loadGames();
    window.__tablerefLast = { kind: data.kind, sent: data.sent, frame: data.snapshot && data.snapshot.frame, at: Date.now() / 1000 };
  };
}

function setConn(on) {
  const el = $("#conn");
  el.classList.toggle("off", !on);
  el.dataset.i18n = on ? "online" : "offline";
  el.textContent = t(el.dataset.i18n);
}

function update(snap, kind) {
  // An HTTP reply can land after a newer WebSocket push: never step back to it.
  if (state.snap && snap.seq < state.snap.seq) return;
  const eventsChanged = !state.snap || state.snap.events !== snap.events || state.snap.game_id !== snap.game_id;
  state.snap = snap;
  state.clockBase = { at: performance.now(), timer: snap.timer };
  if (snap.message) showMessage(snap.message, false);
  render();
  if (eventsChanged || kind === "start") loadHistory();
}

// -- rendering -------------------------------------------------------------------------------
function render() {
  const snap = state.snap;
  $("#nogame").hidden = !!snap;
  if (!snap) return;
  $("#gamename").textContent = `${snap.game} #${snap.game_id} · ${t(snap.status)}`;
  renderScores(snap);
  renderTable(snap);
  renderClock();
  renderPlayers(snap);
  renderTriggers(snap);
  renderRacks(snap);
}

// -- a real Rummikub table's racks, typed as tokens ------------------------------------------
function renderRacks(snap) {
  const form = $("#racks");
  const show = snap.status === "running" && (snap.summary || {}).awaiting === "racks";
  form.hidden = !show;
  const box = $("#racks-fields");
  const key = `${snap.game_id}:${snap.players.join()}`;
  if (!show || box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...snap.players.map(rackField));
}

function rackField(player) {
  const wrap = document.createElement("div");
  wrap.className = "rack";
  wrap.dataset.player = player;
  const label = document.createElement("label");
  const name = document.createElement("span");
  name.textContent = player;
  const input = document.createElement("input");
  input.autocomplete = "off";
  input.spellcheck = false;
  input.placeholder = "r7 k13 J";
  label.append(name, input);
  const tiles = document.createElement("div");
  tiles.className = "tiles";
  const err = document.createElement("p");
  err.className = "err";
  err.setAttribute("role", "alert");
  wrap.append(label, tiles, err);
  let pending = null;
  input.addEventListener("input", () => {
    clearTimeout(pending);
    pending = setTimeout(() => checkRack(wrap), 200);
  });
  return wrap;
}

// Parsed by the server's notation (the one parser): the tiles as understood, or the bad token.
async function checkRack(wrap) {
  const input = wrap.querySelector("input");
  const tiles = wrap.querySelector(".tiles");
  const err = wrap.querySelector(".err");
  const text = input.value.trim();
  try {
    const data = await api("GET", `/api/notation/${state.snap.game}?text=${encodeURIComponent(text)}`);
    if (input.value.trim() !== text) return null; // typed on meanwhile: the newer check counts
    tiles.replaceChildren(...data.tokens.map((tok) => {
      const chip = document.createElement("span");
      chip.className = `tile tile-${"krbo".includes(tok[0]) ? tok[0] : "joker"}`;
      chip.textContent = tok;
      return chip;
    }));
    if (data.tokens.length) {
      const count = document.createElement("small");
      count.textContent = `${data.tokens.length} ${t("tiles")}`;
      tiles.append(count);
    }
    err.textContent = "";
    input.removeAttribute("aria-invalid");
    return data.tokens;
  } catch (e) {
    tiles.replaceChildren();
    err.textContent = e.message;
    input.setAttribute("aria-invalid", "true");
    return null;
  }
}

async function submitRacks(e) {
  e.preventDefault();
  if (!state.snap) return;
  const racks = {};
  let ok = true;
  for (const wrap of document.querySelectorAll("#racks-fields .rack")) {
    if ((await checkRack(wrap)) === null) ok = false;
    racks[wrap.dataset.player] = wrap.querySelector("input").value.trim();
  }
  if (!ok) { showMessage(t("racks_fix"), true); return; }
  const snap = await act("POST", gamePath("/racks"), { racks });
  if (snap) update(snap, "event");
}

// -- starting a game: players in seat order, the game's options ------------------------------
const OPTIONS = {
  rummikub: [
    { key: "timer_seconds", type: "number", value: 60, min: 10, max: 600 },
    { key: "strict_penalty", type: "checkbox", value: false },
    { key: "mirror_value", type: "select", value: "number", choices: ["number", "zero"] },
  ],
  allin: [
    { key: "side", type: "select", value: "A", choices: ["A", "B"] },
    // the two discard variants exclude each other: one choice, sent as its flag
    { key: "discard", type: "select", value: "none", flag: true,
      choices: ["none", "enchanted_discard", "closed_minds_eye"] },
    { key: "heirs_of_the_prophets", type: "checkbox", value: false },
  ],
  fourcolor: [
    { key: "hands", type: "number", value: 1, min: 1, max: 99 },
    { key: "threshold", type: "number", value: 10, min: 0, max: 999 },
    { key: "self_drawn", type: "select", value: "hand", choices: ["hand", "exposed"] },
  ],
  cactus: [],
};

function renderOptions() {
  const game = $("#ng-game").value;
  const box = $("#ng-options");
  const legend = box.querySelector("legend");
  const fields = OPTIONS[game].map((opt) => {
    const label = document.createElement("label");
    label.className = `opt opt-${opt.type}`;
    const name = document.createElement("span");
    name.dataset.i18n = `opt_${opt.key}`;
    name.textContent = t(`opt_${opt.key}`);
    let input;
    if (opt.type === "select") {
      input = document.createElement("select");
      for (const c of opt.choices) input.append(new Option(opt.flag ? t(`opt_${c}`) : c, c));
      input.value = opt.value;
    } else {
      input = document.createElement("input");
      input.type = opt.type;
      if (opt.type === "checkbox") input.checked = opt.value;
      else { input.value = opt.value; input.min = opt.min; input.max = opt.max; }
    }
    input.dataset.option = opt.key;
    if (opt.type === "checkbox") label.append(input, name); else label.append(name, input);
    return label;
  });
  box.hidden = fields.length === 0;
  box.replaceChildren(legend, ...fields);
}

function chosenOptions() {
  const out = {};
  for (const opt of OPTIONS[$("#ng-game").value]) {
    const input = document.querySelector(`#ng-options [data-option="${opt.key}"]`);
    const value = opt.type === "checkbox" ? input.checked : opt.type === "number" ? Number(input.value) : input.value;
    if (value === opt.value) continue; // the engine's defaults stay implicit
    if (opt.flag) out[value] = true; else out[opt.key] = value;
  }
  return out;
}

function seatPlayers() {
  return $("#ng-players").value.split(",").map((p) => p.trim()).filter(Boolean);
}

function renderSeats() {
  const players = seatPlayers();
  $("#ng-seats").textContent = players.map((p, i) => `${i + 1}. ${p}`).join(" · ");
}

function renderTriggers(snap) {
  const box = $("#triggers");
  const names = snap.triggers || [];
  if (box.dataset.names === names.join() && box.dataset.lang === state.lang) return;
  box.dataset.names = names.join();
  box.dataset.lang = state.lang;
  box.replaceChildren();
  for (const name of names) {
    const b = document.createElement("button");
    b.dataset.trigger = name;
    if (name === "done") b.id = "done";
    b.textContent = t(`trigger_${name}`);
    b.addEventListener("click", async () => {
      let data = {};
      const raw = $("#trigger-data").value.trim();
      if (raw) {
        try { data = JSON.parse(raw); } catch (err) { showMessage(err.message, true); return; }
      }
      if (await act("POST", gamePath("/triggers"), { name, data })) $("#trigger-data").value = "";
    });
    box.append(b);
  }
}

function renderScores(snap) {
  const list = $("#scores");
  list.replaceChildren();
  const summary = snap.summary || {};
  const scores = summary.scores || {};
  const winners = [].concat(summary.winner || []);
  for (const name of snap.players) {
    const li = document.createElement("li");
    li.dataset.player = name;
    const who = document.createElement("span");
    who.className = "name";
    who.textContent = name;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = scores[name] ?? 0;
    li.append(who, score);
    if (snap.turn === name && snap.status === "running") {
      li.classList.add("turn");
      const tag = document.createElement("em");
      tag.textContent = t("turn");
      li.append(tag);
    }
    if (winners.includes(name)) {
      li.classList.add("winner");
      const tag = document.createElement("strong");
      tag.textContent = `★ ${t("winner")}`;
      li.append(tag);
    }
    list.append(li);
  }
}

// -- table calibration: four corners clicked on the frame ------------------------------------
function startCalibration() {
  state.calib = [];
  $("#calib-count").textContent = "0/4";
  showMessage(t("calib_hint"));
  if (state.snap) renderTable(state.snap);
}

async function calibrationClick(evt) {
  if (!Array.isArray(state.calib) || !state.snap) return false;
  const svg = $("#overlay");
  const p = new DOMPoint(evt.clientX, evt.clientY).matrixTransform(svg.getScreenCTM().inverse());
  state.calib.push([Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10]);
  $("#calib-count").textContent = `${state.calib.length}/4`;
  if (state.calib.length === 4) {
    const table = state.snap.table;
    const body = {
      corners: state.calib,
      width_mm: Number($("#calib-w").value),
      height_mm: Number($("#calib-h").value),
      image_size: [table.width, table.height],
    };
    const seats = $("#calib-seats").value.trim();
    if (seats) body.seats = Number(seats);  // a hand area per seat and a centre, else keep zones
    state.calib = null;
    const name = encodeURIComponent($("#calib-name").value.trim() || "default");
    const saved = await act("PUT", `/api/tables/${name}`, body);
    if (saved) showMessage(`${t("calib_saved")}: ${saved.name}`);
  }
  renderTable(state.snap);
  return true;
}

function drawCalibration(svg) {
  for (const [x, y] of state.calib || []) {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x);
    c.setAttribute("cy", y);
    c.setAttribute("r", 8);
    c.classList.add("calib-point");
    svg.append(c);
  }
}

// Which calibration places the cards in zones: its name and the zones drawn under the reads.
function renderCalibration(table, svg) {
  const calib = table.calibration || { table: null, outlines: {} };
  const label = $("#table-calib");
  const zones = Object.entries(calib.zones || {}).map(([owner, zone]) => `${owner} = ${zone}`);
  label.textContent = calib.table
    ? `${t("table_calibrated")}: ${calib.table} (${calib.method})`
    : t("table_sectors");
  label.title = calib.error || zones.join(", ");
  label.classList.toggle("error", Boolean(calib.error));
  // Clicking the corners again re-calibrates the table in use (its running games follow).
  if (calib.table && $("#calib-name").value === "default") $("#calib-name").value = calib.table;
  for (const [owner, points] of Object.entries(calib.outlines || {})) {
    const g = document.createElementNS(SVG, "g");
    g.classList.add("zone");
    g.dataset.owner = owner;
    const poly = document.createElementNS(SVG, "polygon");
    poly.setAttribute("points", points.map((p) => p.join(",")).join(" "));
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", Math.min(...points.map((p) => p[0])) + 6);
    text.setAttribute("y", Math.min(...points.map((p) => p[1])) + 24);
    text.textContent = owner === "centre" ? t("zone_centre") : owner;
    g.append(poly, text);
    svg.append(g);
  }
}

// Where the referee placed a read: a player's hand, the centre, no zone, or off the table.
function zoneName(zone) {
  if (zone === undefined || zone === null) return t("zone_none");
  if (zone === "centre") return t("zone_centre");
  if (zone === "off_table") return t("zone_off");
  return zone;
}

function renderTable(snap) {
  const table = snap.table;
  const svg = $("#overlay");
  svg.setAttribute("viewBox", `0 0 ${table.width} ${table.height}`);
  svg.replaceChildren();
  $("#stable").textContent = table.stable ? t("stable") : t("changing");
  renderCalibration(table, svg);
  const img = $("#frame");
  if (snap.frame !== null && snap.frame !== undefined) {
    img.hidden = false;
    img.src = `/api/frame.jpg?overlay=false&game_id=${snap.game_id}&f=${snap.frame}`;
  }
  for (const obj of table.objects) {
    const g = document.createElementNS(SVG, "g");
    g.classList.add("obj");
    if (obj.flag) g.classList.add("flag");
    if (obj.corrected) g.classList.add("corrected");
    if (state.selected === obj.id) g.classList.add("selected");
    g.dataset.id = obj.id;
    g.dataset.label = obj.label;
    const poly = document.createElementNS(SVG, "polygon");
    poly.setAttribute("points", obj.quad.map((p) => p.join(",")).join(" "));
    const xs = obj.quad.map((p) => p[0]);
    const ys = obj.quad.map((p) => p[1]);
    const text = document.createElementNS(SVG, "text");
    text.setAttribute("x", Math.min(...xs));
    text.setAttribute("y", Math.min(...ys) - 4);
    text.textContent = obj.label + (obj.flag ? " ?" : "");
    const title = document.createElementNS(SVG, "title");
    title.textContent = (obj.flag ? `${obj.label}: ${obj.flag}` : `${obj.label} (${obj.confidence})`)
      + ` · ${zoneName(obj.zone)}`;
    g.dataset.zone = obj.zone ?? "";
    g.append(poly, text, title);
    g.addEventListener("click", () => openCorrection(obj));
    svg.append(g);
  }
  drawCalibration(svg);
}

async function openCorrection(obj) {
  state.selected = obj.id;
  $("#correct").hidden = false;
  $("#corr-label").textContent = obj.label;
  $("#corr-flag").textContent = obj.flag || "";
  const options = await act("GET", gamePath(`/objects/${obj.id}/suggestions`));
  if (!options) return;
  const top = $("#corr-top");
  top.replaceChildren();
  for (const label of options.slice(0, 3)) {
    const b = document.createElement("button");
    b.textContent = label;
    b.className = "suggestion";
    b.addEventListener("click", () => applyCorrection(label));
    top.append(b);
  }
  const all = $("#corr-all");
  all.replaceChildren();
  for (const label of options) {
    const o = document.createElement("option");
    o.value = o.textContent = label;
    all.append(o);
  }
  renderTable(state.snap);
}

async function applyCorrection(label) {
  const id = state.selected;
  if (id === null) return;
  const snap = await act("POST", gamePath("/corrections"), { object_id: id, label });
  if (snap) {
    closeCorrection();
    update(snap, "correction");
  }
}

function closeCorrection() {
  state.selected = null;
  $("#correct").hidden = true;
  if (state.snap) renderTable(state.snap);
}

function renderClock() {
  const base = state.clockBase;
  if (!base) return;
  const timer = base.timer;
  let ms = timer.remaining_ms;
  if (timer.running) ms = Math.max(0, ms - (performance.now() - base.at));
  const s = Math.ceil(ms / 1000);
  const el = $("#clock");
  el.textContent = timer.seconds ? `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}` : "--:--";
  el.classList.toggle("low", timer.running && s <= 10);
  el.classList.toggle("running", timer.running);
}

function renderPlayers(snap) {
  const sel = $("#hist-player");
  const current = sel.value;
  if ([...sel.options].map((o) => o.value).join() !== snap.players.join()) {
    sel.replaceChildren(...snap.players.map((p) => new Option(p, p)));
    if (snap.players.includes(current)) sel.value = current;
  }
}

async function loadHistory() {
  if (!state.snap) return;
  const player = $("#hist-player").value || state.snap.players[0];
  if (!player) return;
  const [games, events] = await Promise.all([
    api("GET", `/api/players/${encodeURIComponent(player)}/history`).catch(() => null),
    api("GET", gamePath("/history")).catch(() => null),
  ]);
  const gl = $("#hist-games");
  gl.replaceChildren();
  for (const g of (games && games.games) || []) {
    const li = document.createElement("li");
    li.textContent = `${g.game} #${g.game_id} · ${t(g.status)} · ${g.score ?? "–"} ${t("points")}${g.won ? " ★ " + t("won") : ""}`;
    gl.append(li);
  }
  const el = $("#hist-events");
  el.replaceChildren();
  for (const row of ((events || []).filter((r) => r.op === "undo" || r.players.includes(player))).reverse()) {
    const li = document.createElement("li");
    const ev = row.event ? Object.entries(row.event).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(" ") : "";
    li.textContent = row.op === "undo" ? `↶ ${t("undone")}` : `${row.event.type} ${ev}`;
    if (row.op === "undo") li.className = "undo";
    el.append(li);
  }
}

async function loadGames() {
  const games = await api("GET", "/api/games").catch(() => null);
  if (!games) return;
  const pick = $("#game-pick");
  const keep = pick.value;
  const live = new Option(t("live_game"), "live");
  live.dataset.i18n = "live_game";
  pick.replaceChildren(live, ...games.map((g) => {
    const scores = Object.entries((g.summary || {}).scores || {}).map(([p, s]) => `${p} ${s}`).join(", ");
    return new Option(`#${g.id} ${g.game} · ${t(g.status)} · ${scores}`, String(g.id));
  }));
  pick.value = [...pick.options].some((o) => o.value === keep) ? keep : "live";
}

async function showGame(value) {
  state.follow = value;
  const path = value === "live" ? "/api/games/current" : `/api/games/${value}`;
  const snap = await api("GET", path).catch(() => null);
  if (snap && snap.table) update(snap, "hello");
}

// -- wiring ----------------------------------------------------------------------------------
function wire() {
  $("#lang").addEventListener("change", (e) => applyLanguage(e.target.value));
  $("#savetoken").addEventListener("click", () => {
    state.token = $("#token").value.trim();
    localStorage.setItem("tableref.token", state.token);
    $("#tokenbox").open = false;
  });
  for (const b of document.querySelectorAll("[data-timer]")) {
    b.addEventListener("click", () => state.snap && act("POST", gamePath("/timer"), { action: b.dataset.timer }));
  }
  $("#undo").addEventListener("click", () => state.snap && act("POST", gamePath("/undo")));
  $("#calib-start").addEventListener("click", startCalibration);
  // While corners are being clicked, a click on the frame is a corner, not a read to correct.
  $("#overlay").addEventListener("click", (e) => {
    if (!Array.isArray(state.calib)) return;
    e.stopPropagation();
    calibrationClick(e);
  }, true);
  $("#corr-apply").addEventListener("click", () => applyCorrection($("#corr-all").value));
  $("#corr-cancel").addEventListener("click", closeCorrection);
  $("#hist-player").addEventListener("change", loadHistory);
  $("#game-pick").addEventListener("change", (e) => showGame(e.target.value));
  $("#manual").addEventListener("submit", async (e) => {
    e.preventDefault();
    let event;
    try { event = JSON.parse($("#manual-json").value); } catch (err) { showMessage(err.message, true); return; }
    if (state.snap && await act("POST", gamePath("/events"), { event })) $("#manual-json").value = "";
  });
  $("#racks").addEventListener("submit", submitRacks);
  $("#ng-game").addEventListener("change", renderOptions);
  $("#ng-players").addEventListener("input", renderSeats);
  renderOptions();
  $("#newgame-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const players = seatPlayers();
    const session = await act("POST", "/api/sessions", { players });
    // Started here = real cards on the table: nobody knows the shuffle (the engines' table mode).
    const body = { game: $("#ng-game").value, options: chosenOptions(), real_table: true };
    const chosenTable = $("#ng-table").value;  // "": the table's default; "-": no calibration
    if (chosenTable) body.table = chosenTable === "-" ? "" : chosenTable;
    if (session) {
      const snap = await act("POST", `/api/sessions/${session.id}/games`, body);
      if (snap) update(snap, "start");
    }
  });
  setInterval(renderClock, 250);
}

// The calibrated tables a new game may place its cards by.
async function loadTables() {
  let names = [];
  try { names = (await api("GET", "/api/tables")).tables; } catch (e) { return; }
  const pick = $("#ng-table");
  for (const name of names) {
    const o = document.createElement("option");
    o.value = o.textContent = name;
    pick.append(o);
  }
}

async function boot() {
  state.token = localStorage.getItem("tableref.token") || "";
  // A link from `tableref token --url` carries the token once; keep it and clean the URL.
  const fromUrl = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromUrl) {
    state.token = fromUrl;
    localStorage.setItem("tableref.token", fromUrl);
    history.replaceState(null, "", location.pathname);
  }
  $("#token").value = state.token;
  wire();
  applyLanguage(preferredLanguage());
  try { update(await api("GET", "/api/games/current"), "hello"); } catch (e) { /* no game yet */ }
  loadGames();
  loadTables();
  connect();
}

document.addEventListener("DOMContentLoaded", boot);
