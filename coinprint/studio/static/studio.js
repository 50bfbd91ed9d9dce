// coinprint studio: the pages' behaviour. No build step, no framework; every text that comes
// from a drawing, a record or the server is put into the page as text (textContent), never as
// markup, and pictures are the studio's own SVG.
"use strict";

const CSRF = document.querySelector('meta[name="csrf-token"]').content;
const $ = (id) => document.getElementById(id);

function say(text, bad) {
  const status = $("status");
  status.textContent = text || "";
  status.className = bad ? "bad" : "";
}

async function api(method, url, body, type, signal) {
  const headers = { "X-CSRF-Token": CSRF };
  let payload = body;
  if (body !== undefined && type === undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (type) {
    headers["Content-Type"] = type;
  }
  const response = await fetch(url, { method, headers, body: payload, credentials: "same-origin", signal });
  const isJson = (response.headers.get("content-type") || "").startsWith("application/json");
  const data = isJson ? await response.json() : await response.text();
  if (!response.ok) {
    throw new Error(isJson && data.error ? data.error : `${response.status} ${response.statusText}`);
  }
  return data;
}

function option(select, value, label) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = label === undefined ? value : label;
  select.appendChild(element);
  return element;
}

// An SVG document of the studio's own, put into ``holder`` as live elements (so a click on the
// board and a highlighted problem can find their places).
function showSvg(holder, text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  holder.replaceChildren();
  if (svg.nodeName !== "svg") return null;
  svg.querySelectorAll("script, foreignObject").forEach((node) => node.remove());
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const shown = document.importNode(svg, true);
  holder.appendChild(shown);
  return shown;
}

function query(fields) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value !== "" && value !== null && value !== undefined) params.append(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function debounce(func, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => func(...args), ms);
  };
}

let CATALOGUE = null;
async function catalogue() {
  if (CATALOGUE === null) CATALOGUE = await api("GET", "/api/games");
  return CATALOGUE;
}

// -- forms from a game's parameter schema -------------------------------------------------------------
function paramField(holder, param, command) {
  const id = `param-${param.name}`;
  const wrap = document.createElement("div");
  wrap.className = "field";
  const label = document.createElement("label");
  label.htmlFor = id;
  label.textContent = param.name.replace(/_/g, " ");
  let input;
  if (param.kind === "choice") {
    input = document.createElement("select");
    for (const choice of param.choices) option(input, choice);
    input.value = param.default;
  } else if (param.kind === "flag") {
    input = document.createElement("input");
    input.type = "checkbox";
    input.checked = param.default === "true";
    wrap.classList.add("flag");
  } else {
    input = document.createElement("input");
    input.type = param.kind === "int" || param.kind === "seed" ? "number" : "text";
    if (param.low !== null) input.min = param.low;
    if (param.high !== null) input.max = param.high;
    input.value = param.default;
    input.placeholder = param.default || "";
  }
  input.id = id;
  input.name = param.name;
  input.dataset.param = param.name;
  input.dataset.kind = param.kind;
  input.dataset.default = param.default;
  const help = document.createElement("small");
  help.id = `${id}-help`;
  help.textContent = param.help;
  input.setAttribute("aria-describedby", help.id);
  wrap.append(label, input, help);
  holder.appendChild(wrap);
  return input;
}

function buildParams(holder, game, command) {
  holder.querySelectorAll(".field").forEach((node) => node.remove());
  const shown = new Set(game[command]);
  for (const param of game.params) {
    if (shown.has(param.name)) paramField(holder, param, command);
  }
}

// The values a form's parameter fields hold, those left at their default left out (as on the
// command line, where an option not typed is not given).
function paramValues(holder) {
  const values = {};
  holder.querySelectorAll("[data-param]").forEach((input) => {
    const value = input.type === "checkbox" ? String(input.checked) : input.value.trim();
    if (value !== input.dataset.default) values[input.dataset.param] = value;
  });
  return values;
}

function fillGames(select, games, keep) {
  select.replaceChildren();
  for (const game of games) {
    if (keep(game)) option(select, game.name, game.title);
  }
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && [...select.options].some((o) => o.value === wanted)) select.value = wanted;
}

async function previewBoard(game, fields, holder, lines) {
  try {
    let info = null;
    if (lines) {
      info = await api("GET", `/api/board-info/${game}${query(fields)}`);
      lines.textContent = [...info.lines, ...info.warnings].join(" · ");
      // A map given no seed got a fresh one: keep it, so the preview and the next change show that map.
      const seed = document.querySelector('#game-options [data-kind="seed"]');
      if (seed && seed.value === "" && info.seed !== null) {
        seed.value = String(info.seed);
        fields[seed.dataset.param] = seed.value;
      }
    }
    showSvg(holder, await api("GET", `/api/board/${game}.svg${query(fields)}`));
    say("");
    return info;
  } catch (error) {
    holder.replaceChildren();
    say(error.message, true);
  }
  return null;
}

// Names a person knows for the codes the forms send: "English" for en (in its own language,
// as the browser names it), "A4" for a4, "Letter" for letter.
function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: "language" }).of(code);
    return name ? name.charAt(0).toUpperCase() + name.slice(1) : code;
  } catch (error) {
    return code;
  }
}

function paperName(code) {
  return /^[a-z]\d+$/.test(code) ? code.toUpperCase() : code.charAt(0).toUpperCase() + code.slice(1);
}

// -- the Print page -----------------------------------------------------------------------------------
async function printPage() {
  const cat = await catalogue();
  const gameSelect = $("game");
  fillGames(gameSelect, cat.games, () => true);
  for (const paper of cat.papers) option($("paper"), paper, paperName(paper));
  if (!cat.papers.includes(cat.default_paper)) option($("paper"), cat.default_paper, paperName(cat.default_paper));
  option($("paper"), "custom", "another size (width x height)");
  $("paper").value = cat.default_paper;
  for (const lang of cat.languages) option($("lang"), lang, languageName(lang));
  for (const style of cat.styles) option($("style"), style, style === "color" ? "in colour" : style.replace(/-/g, " "));
  const holder = $("game-options");
  const game = () => cat.games.find((g) => g.name === gameSelect.value);

  const printFields = () => {
    const paper = $("paper").value === "custom" ? $("custom-paper").value.trim() : $("paper").value;
    return { paper: paper === cat.default_paper ? "" : paper, style: $("style").value === "color" ? "" : $("style").value };
  };
  let kitToken = 0;
  const update = async () => {
    const g = game();
    const lang = $("lang").value === "en" ? "" : $("lang").value;
    // The board is printed in the chosen language too, as ``board --lang`` prints it.
    const fields = { ...printFields(), ...paramValues(holder), lang };
    await previewBoard(g.name, fields, $("board-preview"), $("board-lines"));
    // The kit's board follows the page's layout options (a fresh seed included, kept above),
    // as ``kit GAME --size 3`` takes them; the board's own (the Map's --blank) are not a kit's.
    const kitFields = { ...printFields(), lang };
    const kitNames = new Set(g.kit);
    for (const [key, value] of Object.entries(fields)) if (kitNames.has(key)) kitFields[key] = value;
    const ruleNames = new Set(g.rules);
    const ruleFields = { paper: kitFields.paper, lang: kitFields.lang };
    for (const [key, value] of Object.entries(paramValues(holder))) if (ruleNames.has(key)) ruleFields[key] = value;
    $("download-board").href = `/api/board/${g.name}.pdf${query(fields)}`;
    $("download-board-svg").href = `/api/board/${g.name}.svg${query(fields)}`;
    $("download-kit").href = `/api/kit/${g.name}.pdf${query(kitFields)}`;
    $("download-rules").href = `/api/rules/${g.name}.pdf${query(ruleFields)}`;
    const mine = ++kitToken;
    try {
      const count = await api("GET", `/api/kit-pages/${g.name}${query(kitFields)}`);
      if (mine !== kitToken) return;
      const pages = $("kit-preview");
      pages.replaceChildren();
      for (let n = 1; n <= count.pages; n++) {
        const img = document.createElement("img");
        img.src = `/api/kit-page/${g.name}/${n}.svg${query(kitFields)}`;
        img.alt = `kit page ${n} of ${count.pages}`;
        img.loading = "lazy";
        // A thumbnail is too small to read: it opens the page at full size.
        const link = document.createElement("a");
        link.href = img.src;
        link.target = "_blank";
        link.appendChild(img);
        pages.appendChild(link);
      }
    } catch (error) {
      say(error.message, true);
    }
  };
  const later = debounce(update, 200);
  const choose = () => {
    buildParams(holder, game(), "board");
    update();
  };
  gameSelect.addEventListener("change", choose);
  for (const kind of ["input", "change"]) {
    $("print-form").addEventListener(kind, (event) => {
      if (event.target !== gameSelect) later();
    });
  }
  $("print-form").addEventListener("submit", (event) => event.preventDefault());
  choose();
}

// -- the Maps page ------------------------------------------------------------------------------------
async function mapsPage() {
  const cat = await catalogue();
  const gameSelect = $("game");
  fillGames(gameSelect, cat.games, (g) => g.generated !== null);
  const holder = $("game-options");
  const game = () => cat.games.find((g) => g.name === gameSelect.value);
  const seedInput = () => holder.querySelector('[data-kind="seed"]');

  const update = async () => {
    const g = game();
    const fields = paramValues(holder);
    const info = await previewBoard(g.name, fields, $("board-preview"), $("board-lines"));
    for (const fmt of ["pdf", "svg", "geojson"]) $(`download-${fmt}`).href = `/api/board/${g.name}.${fmt}${query(fields)}`;
    if (info) {
      $("map-seed").textContent = info.seed === null ? "" : `Seed ${info.seed}`;
      $("play-map").href = `/play${query({ game: g.name, layout: info.spec })}`;
    }
  };
  const newMap = () => {
    const g = game();
    for (const [key, value] of Object.entries(g.generated.asks)) {
      const input = holder.querySelector(`[data-param="${key}"]`);
      if (input) input.value = value;
    }
    const seed = seedInput();
    if (seed) seed.value = String(1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 999999));
    update();
  };
  let search = null;
  const fair = () => {
    const g = game();
    if (search) search.close();
    const fields = { ...paramValues(holder), candidates: $("candidates").value, fair_games: $("fair-games").value };
    const bar = $("fair-progress");
    bar.hidden = false;
    bar.value = 0;
    $("fair-line").textContent = "searching…";
    $("fair").disabled = true;
    search = new EventSource(`/api/fair/${g.name}/events${query(fields)}`);
    const finish = () => {
      search.close();
      search = null;
      $("fair").disabled = false;
    };
    search.addEventListener("progress", (event) => {
      const { done, total } = JSON.parse(event.data);
      bar.max = total;
      bar.value = done;
    });
    search.addEventListener("done", (event) => {
      const found = JSON.parse(event.data);
      finish();
      bar.value = bar.max;
      const seed = seedInput();
      if (seed && found.seed !== null) seed.value = String(found.seed);
      $("fair-line").textContent = found.line;
      update();
    });
    search.addEventListener("error", (event) => {
      finish();
      bar.hidden = true;
      $("fair-line").textContent = event.data ? JSON.parse(event.data).error : "the search stopped";
    });
  };
  gameSelect.addEventListener("change", () => {
    buildParams(holder, game(), "board");
    newMap();
  });
  $("new-map").addEventListener("click", newMap);
  $("fair").addEventListener("click", fair);
  const changed = debounce((event) => event.target !== gameSelect && update(), 250);
  $("maps-form").addEventListener("input", changed);
  $("maps-form").addEventListener("change", changed);
  $("maps-form").addEventListener("submit", (event) => event.preventDefault());
  buildParams(holder, game(), "board");
  newMap();
}

// -- the Check page -----------------------------------------------------------------------------------
function showCheck(result, reportSvg) {
  const verdict = $("verdict");
  verdict.textContent = result.error ? result.error : `${result.source}: ${result.verdict}`;
  verdict.className = `verdict ${result.valid ? "good" : "bad"}`;
  const list = $("problems");
  list.replaceChildren();
  const svg = reportSvg ? showSvg($("report"), reportSvg) : null;
  if (!reportSvg) $("report").replaceChildren();
  for (const problem of result.problems || []) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = `problem ${problem.severity}`;
    // A note without a number (a remark on the whole drawing) is listed without one.
    button.textContent = problem.number === null ? problem.message : `${problem.number}. ${problem.message}`;
    button.addEventListener("click", () => highlight(svg, problem.number, button));
    item.appendChild(button);
    list.appendChild(item);
  }
  const actions = $("check-actions");
  actions.hidden = !(result.valid && result.id);
  if (result.valid && result.id) {
    $("print-drawing").href = `/api/board/${result.game}.pdf?drawing=${result.id}`;
    $("kit-drawing").href = `/api/kit/${result.game}.pdf?drawing=${result.id}`;
    $("play-drawing").href = `/play${query({ game: result.game, layout: `drawing:${result.id}` })}`;
  }
}

// The numbered badge of a problem on the report picture: its white number on a coloured disc.
function highlight(svg, number, button) {
  document.querySelectorAll(".problem.current").forEach((node) => node.classList.remove("current"));
  button.classList.add("current");
  if (!svg || number === null) return;
  svg.querySelectorAll(".highlight").forEach((node) => node.classList.remove("highlight"));
  for (const text of svg.querySelectorAll('text[fill="#ffffff"]')) {
    if (text.textContent.trim() === String(number)) {
      const disc = text.previousElementSibling || text;
      disc.classList.add("highlight");
      disc.scrollIntoView({ block: "center", inline: "center", behavior: "smooth" });
    }
  }
}

// The file last checked: choosing another game checks it again.
let CHECKED_FILE = null;

// An SVG never says which game it is for (a coinprint GeoJSON does).
function saysNoGame(file) {
  return /\.svg$/i.test(file.name) || file.type === "image/svg+xml";
}

async function checkFile(file) {
  CHECKED_FILE = file;
  const game = $("check-game").value;
  if (!game && saysNoGame(file)) {
    const error = `Choose the game ${file.name} is for (above): an SVG drawing does not say which game it is.`;
    showCheck({ source: file.name, error, valid: false, problems: [] }, null);
    say("");
    $("check-game").focus();
    return;
  }
  say(`checking ${file.name}…`);
  try {
    const result = await api("POST", `/api/check${query({ game, name: file.name })}`, file, "application/octet-stream");
    const svg = await api("GET", result.report);
    showCheck(result, svg);
  } catch (error) {
    // The reason is the verdict; the status line does not repeat it.
    showCheck({ source: file.name, error: error.message, valid: false, problems: [] }, null);
  }
  say("");
}

let WATCH = null;
function watchFile(number, button) {
  if (WATCH) WATCH.close();
  const game = $("check-game").value;
  WATCH = new EventSource(`/api/watch/${number}/events${query({ game })}`);
  document.querySelectorAll("button.watch").forEach((b) => b.setAttribute("aria-pressed", "false"));
  button.setAttribute("aria-pressed", "true");
  WATCH.addEventListener("check", (event) => {
    const result = JSON.parse(event.data);
    showCheck(result, result.report_svg || null);
    say(`checked ${result.source} at ${new Date().toLocaleTimeString()}`);
  });
  WATCH.addEventListener("error", () => say("the watch stopped (is the studio still running?)", true));
}

async function checkPage() {
  const cat = await catalogue();
  for (const game of cat.games) if (game.drawn) option($("check-game"), game.name, game.title);
  $("drawing-file").addEventListener("change", () => {
    const file = $("drawing-file").files[0];
    // Emptied, so that choosing the same file again (saved since) is a change and checks it.
    $("drawing-file").value = "";
    if (file) checkFile(file);
  });
  $("check-game").addEventListener("change", () => {
    const watching = document.querySelector('button.watch[aria-pressed="true"]');
    if (watching) watchFile(watching.dataset.number, watching);
    else if (CHECKED_FILE) checkFile(CHECKED_FILE);
  });
  const drop = $("drop");
  drop.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const file = event.dataTransfer.files[0];
    if (file) checkFile(file);
  });
  drop.addEventListener("click", () => $("drawing-file").click());
  drop.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      $("drawing-file").click();
    }
  });
  $("check-form").addEventListener("submit", (event) => event.preventDefault());
  document.querySelectorAll("button.watch").forEach((button) => {
    button.addEventListener("click", () => watchFile(button.dataset.number, button));
  });
}

// -- the Play page ------------------------------------------------------------------------------------
// The table (table.js) draws the board; the game's interaction (pick.js) turns pointing into
// moves. The game's id is kept in the address, so a reload or Back continues it.
let GAME = null;
let BUSY = false;
let TABLE = null;
let TABLE_ID = null;
let INTERACTION = null;
let THINKING = null;
let LAST_SHOWN = null;

function announce(text) {
  $("announce").textContent = text || "";
}

function tableError(text) {
  $("table-error").textContent = text || "";
}

// The person's seat in a game against the computer (the first seat with no agent).
function personSeat(state) {
  return state.players.find((p) => !(p in state.agents)) || state.players[0];
}

// The table is drawn again when the game or its board changes (the Map drawn together grows
// a country a move, then is chased on by pointing): ``board_key`` names the board as it is.
let BOARD_WORDS = null;

async function ensureTable(state) {
  const key = `${state.id} ${state.board_key}`;
  if (TABLE_ID === key) return;
  if (!TABLE_ID || !TABLE_ID.startsWith(`${state.id} `)) $("setup").open = false;
  const board = await api("GET", `/api/play/${state.id}/table`);
  const { GameTable, interactions } = window.CoinprintTable;
  // Each interaction may put its own words on the board; a new one starts from the page's.
  BOARD_WORDS = BOARD_WORDS || { label: $("board").getAttribute("aria-label"), help: $("board-help").textContent };
  $("board").setAttribute("aria-label", BOARD_WORDS.label);
  $("board-help").textContent = BOARD_WORDS.help;
  $("choices").replaceChildren();
  TABLE = new GameTable($("board"), $("trays"), board);
  const id = state.id;
  INTERACTION = (interactions[board.interaction] || interactions.pick).attach(TABLE, {
    play: (text) => playMove(text, tableError),
    preview: (move) => api("POST", `/api/play/${id}/preview`, { move }),
    say: (text, bad) => {
      announce(text);
      tableError(bad ? text : "");
    },
    choices: $("choices"),
  });
  TABLE.onPick((pick) => INTERACTION.point(pick));
  TABLE_ID = key;
}

// The computer's move played out on the board: its picks outlined one after another.
function playOut(picks) {
  picks.forEach((_, index) => setTimeout(() => TABLE && TABLE.mark(picks.slice(0, index + 1), "last"), 220 * index));
}

async function showGame(state) {
  await ensureTable(state);
  const previous = GAME;
  GAME = state;
  if (new URLSearchParams(location.search).get("id") !== state.id) history.replaceState(null, "", `/play?id=${state.id}`);
  TABLE.show(state);
  INTERACTION.show(state.computer_to_move || state.thinking ? { ...state, picks: [], legal: [] } : state);
  const turn = $("turn");
  if (state.over) turn.textContent = `The game is over: ${state.result}`;
  else if (state.computer_to_move) turn.textContent = `${state.turn} to move (the computer)`;
  else turn.textContent = Object.keys(state.agents).length ? `${state.turn} to move: your move` : `${state.turn} to move`;
  $("chance").textContent = state.chance || "";
  $("thinking").hidden = !state.thinking;
  const lines = $("score-lines");
  lines.replaceChildren();
  for (const line of state.score_lines) {
    const item = document.createElement("li");
    item.textContent = line;
    lines.appendChild(item);
  }
  const legal = $("legal");
  legal.replaceChildren();
  for (const move of state.legal) option(legal, typeof move === "object" ? JSON.stringify(move) : move, moveWords(move));
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement("li");
    item.textContent = `${move.player}: ${move.words || moveWords(move.move)}${move.note ? ` (${move.note})` : ""}`;
    moves.appendChild(item);
  }
  $("result").textContent = state.over ? state.result : "";
  $("after").hidden = !state.over;
  $("undo").disabled = !state.can_undo;
  $("computer").disabled = state.over || !state.computer_to_move || state.thinking;
  $("hint").disabled = state.over || state.computer_to_move || state.thinking;
  $("play-move").disabled = state.over || state.computer_to_move;
  $("game-links").hidden = false;
  $("record").href = `/api/play/${state.id}/record`;
  $("replay").href = `/replay/play/${state.id}`;
  $("hint-line").textContent = "";
  document.body.dataset.moves = String(state.moves.length);
  document.body.dataset.game = state.id;
  const last = state.last;
  if (last && (!previous || previous.id !== state.id || previous.moves.length !== state.moves.length)) {
    const said = last.words ? `${last.player} ${last.words}` : `${last.player} played ${moveWords(last.move)}`;
    announce(`${said}${last.note ? ` (${last.note})` : ""}${state.over ? `; ${state.result}` : ""}`);
    if (last.player in state.agents) playOut(last.picks);
  }
  LAST_SHOWN = state;
  if (state.computer_to_move && !state.over && !state.thinking && !BUSY) computerMove();
}

// A move in words: its notation, or an event written as an object (a Flick shot) as its fields.
function moveWords(move) {
  if (typeof move !== "object" || move === null) return String(move);
  return Object.entries(move)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(", ") : value}`)
    .join("; ");
}

async function act(func, errorAt) {
  if (BUSY) return;
  BUSY = true;
  try {
    const state = await func();
    BUSY = false;
    (errorAt || tableError)("");
    await showGame(state);
  } catch (error) {
    BUSY = false;
    if (error.name !== "AbortError") (errorAt || tableError)(error.message);
    if (GAME) {
      $("thinking").hidden = true;
      $("computer").disabled = GAME.over || !GAME.computer_to_move;
    }
  }
}

function computerMove() {
  if (!GAME) return;
  $("thinking").hidden = false;
  $("computer").disabled = true;
  const id = GAME.id;
  THINKING = new AbortController();
  const signal = THINKING.signal;
  act(async () => {
    try {
      return await api("POST", `/api/play/${id}/computer`, undefined, undefined, signal);
    } finally {
      THINKING = null;
    }
  });
}

// Stop the computer's thinking (the server drops it; the request is abandoned).
async function stopThinking() {
  if (!GAME) return;
  const id = GAME.id;
  if (THINKING) THINKING.abort();
  BUSY = false;
  try {
    await api("POST", `/api/play/${id}/stop`);
  } catch (error) {
    tableError(error.message);
  }
  $("thinking").hidden = true;
  if (GAME && GAME.id === id) {
    $("computer").disabled = false;
    announce("The computer's thinking was stopped; press Computer's move to let it play.");
  }
}

function playMove(text, errorAt) {
  if (!GAME || !text) return;
  let move = text;
  // An event written as a JSON object (a Flick shot) is sent as one.
  if (typeof text === "string" && text.startsWith("{")) {
    try {
      move = JSON.parse(text);
    } catch {
      move = text;
    }
  }
  act(() => api("POST", `/api/play/${GAME.id}/move`, { move }), errorAt);
}

function startGame(request) {
  const start = async () => {
    if (GAME && (THINKING || GAME.thinking)) await stopThinking();
    BUSY = false;
    sessionStorage.setItem("coinprint-start", JSON.stringify(request));
    act(() => api("POST", "/api/play", request), (text) => ($("start-error").textContent = text || ""));
  };
  start();
}

// The request that started the game shown, for a rematch (the other seat: swap sides).
function startOf(state, swap) {
  const kept = JSON.parse(sessionStorage.getItem("coinprint-start") || "null");
  const seat = personSeat(state);
  const request = kept && kept.game === state.game ? { ...kept } : { game: state.game, layout: state.layout_spec, opponent: Object.values(state.agents)[0] || null, seat };
  if (swap) request.seat = state.players.find((p) => p !== (request.seat || seat));
  return request;
}

async function listInProgress(listId, sectionId) {
  try {
    const games = await api("GET", "/api/play");
    const list = $(listId);
    list.replaceChildren();
    for (const game of games) {
      if (GAME && game.id === GAME.id) continue;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = `/play?id=${game.id}`;
      link.textContent = `Continue ${game.title} on ${game.layout}: ${game.moves} moves, ${game.turn} to move`;
      item.appendChild(link);
      list.appendChild(item);
    }
    $(sectionId).hidden = !list.children.length;
  } catch (error) {
    say(error.message, true);
  }
}

// A spec for a new random map of ``g`` (its generator's asks and a fresh seed).
function randomSpec(g) {
  const [name, rest] = g.default_spec.split(":");
  const params = new Map((rest || "").split(",").filter(Boolean).map((pair) => pair.split("=")));
  for (const [key, value] of Object.entries(g.generated.asks)) params.set(key, value);
  const seed = g.params.find((p) => p.kind === "seed");
  params.set(seed ? seed.name : "seed", String(1 + (crypto.getRandomValues(new Uint32Array(1))[0] % 999999)));
  return `${name}:${[...params].map(([k, v]) => `${k}=${v}`).join(",")}`;
}

// The picture of the board a layout spec (or ``drawing:ID``) names, small, beside the choice.
function showBoardPicture(g, spec) {
  const picture = $("board-picture");
  const [kind, rest] = spec.split(/:(.*)/s);
  let fields = null;
  if (kind === "drawing") fields = { drawing: rest };
  else if (kind === g.name) fields = Object.fromEntries((rest || "").split(",").filter(Boolean).map((pair) => pair.split("=")));
  // A spec with a field the board command does not take (the Map's draw=1) has no picture.
  if (fields && kind !== "drawing" && Object.keys(fields).some((name) => !g.board.includes(name.replace(/-/g, "_")))) fields = null;
  picture.hidden = fields === null;
  if (fields === null) return;
  picture.src = `/api/board/${g.name}.svg${query(fields)}`;
  const seed = fields.seed ? `, seed ${fields.seed}` : "";
  picture.alt = `The board: ${$("board-choice").selectedOptions[0].textContent}${seed}`;
}

async function playPage() {
  const cat = await catalogue();
  const gameSelect = $("game");
  fillGames(gameSelect, cat.games, (g) => g.seats.length > 0);
  const wanted = new URLSearchParams(location.search);
  const game = () => cat.games.find((x) => x.name === gameSelect.value);
  const pickBoard = () => {
    const g = game();
    const choice = $("board-choice").selectedOptions[0];
    const spec = choice.value === "random" ? randomSpec(g) : choice.value;
    $("layout").value = spec;
    showBoardPicture(g, spec);
  };
  $("board-choice").addEventListener("change", pickBoard);
  $("layout").addEventListener("change", () => showBoardPicture(game(), $("layout").value.trim()));
  const choose = () => {
    const g = game();
    const boards = $("board-choice");
    boards.replaceChildren();
    if (wanted.get("layout") && wanted.get("game") === g.name) option(boards, wanted.get("layout"), "the board you chose on the Maps or Check page");
    option(boards, g.default_spec, "the standard board");
    if (g.generated) option(boards, "random", "a new random map");
    // A layout switch that play takes (the Map's draw: the players draw the map first).
    for (const param of g.params) {
      if (param.kind === "flag" && param.commands.includes("play") && param.commands.includes("spec")) {
        option(boards, `${g.name}:${param.name}=1`, param.help.split(":")[0].replace(/\.$/, ""));
      }
    }
    pickBoard();
    const seat = $("seat");
    seat.replaceChildren();
    for (const s of g.seats) option(seat, s.player);
    option(seat, "", "either side, at random");
  };
  gameSelect.addEventListener("change", choose);
  choose();
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let opponent = $("opponent").value;
    if (opponent === "custom") opponent = $("agent-spec").value.trim() || "greedy";
    let seat = $("seat").value;
    if (!seat) {
      const seats = [...$("seat").options].map((o) => o.value).filter(Boolean);
      seat = seats[crypto.getRandomValues(new Uint32Array(1))[0] % seats.length];
    }
    const request = { game: gameSelect.value, layout: $("layout").value.trim(), opponent: opponent === "" ? null : opponent, seat };
    const seed = $("play-seed").value.trim();
    if (seed !== "") request.seed = Number(seed);
    startGame(request);
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const setError = (text) => ($("move-error").textContent = text || "");
    playMove($("move").value.trim() || $("legal").value, setError);
    $("move").value = "";
  });
  $("legal").addEventListener("dblclick", () => playMove($("legal").value));
  $("legal").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      playMove($("legal").value, (text) => ($("move-error").textContent = text || ""));
    }
  });
  $("computer").addEventListener("click", computerMove);
  $("stop").addEventListener("click", stopThinking);
  $("undo").addEventListener("click", () => act(() => api("POST", `/api/play/${GAME.id}/undo`)));
  $("hint").addEventListener("click", async () => {
    if (!GAME) return;
    $("hint-line").textContent = "looking for a good move…";
    try {
      const hint = await api("POST", `/api/play/${GAME.id}/hint`);
      // An interaction that can show the move itself does (a line to draw); else its words.
      if (INTERACTION.suggest && INTERACTION.suggest(hint.move)) $("hint-line").textContent = "Hint: the line shown on the board (Enter draws it)";
      else $("hint-line").textContent = `Hint: ${moveWords(hint.move)}`;
      TABLE.mark(hint.picks.filter((p) => TABLE.spaces.has(p)), "hint");
    } catch (error) {
      $("hint-line").textContent = error.message;
    }
  });
  $("rematch").addEventListener("click", () => startGame(startOf(GAME, false)));
  $("swap").addEventListener("click", () => startGame(startOf(GAME, true)));
  $("board").addEventListener("keydown", (event) => {
    if (!TABLE) return;
    if (INTERACTION.key(event) || TABLE.key(event)) event.preventDefault();
  });
  const id = wanted.get("id");
  if (id) {
    try {
      await showGame(await api("GET", `/api/play/${id}`));
    } catch (error) {
      $("start-error").textContent = `${error.message}`;
    }
  }
  $("setup").open = !GAME;
  await listInProgress("in-progress", "continue");
}

// -- the Replay page ----------------------------------------------------------------------------------
function replayPage() {
  listInProgress("in-progress", "continue");
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (!file) return;
    try {
      const opened = await api("POST", "/api/replay", file, "application/json");
      location.href = opened.url;
    } catch (error) {
      say(error.message, true);
    }
  });
}

const PAGES = { print: printPage, maps: mapsPage, check: checkPage, play: playPage, replay: replayPage };
document.addEventListener("DOMContentLoaded", () => {
  const start = PAGES[document.body.dataset.page];
  if (start) {
    Promise.resolve(start()).catch((error) => say(error.message, true));
  }
});
