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

async function api(method, url, body, type) {
  const headers = { "X-CSRF-Token": CSRF };
  let payload = body;
  if (body !== undefined && type === undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  } else if (type) {
    headers["Content-Type"] = type;
  }
  const response = await fetch(url, { method, headers, body: payload, credentials: "same-origin" });
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

// -- the Print page -----------------------------------------------------------------------------------
async function printPage() {
  const cat = await catalogue();
  const gameSelect = $("game");
  fillGames(gameSelect, cat.games, () => true);
  for (const paper of cat.papers) option($("paper"), paper);
  if (!cat.papers.includes(cat.default_paper)) option($("paper"), cat.default_paper);
  option($("paper"), "custom", "custom (WxH)");
  $("paper").value = cat.default_paper;
  for (const lang of cat.languages) option($("lang"), lang);
  for (const style of cat.styles) option($("style"), style);
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
        pages.appendChild(img);
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
let GAME = null;
let BUSY = false;

// The words of a move, lower-cased (a board may label a space "A2" where moves say "a2").
function tokens(move) {
  return String(move).toLowerCase().split(/[\s;,:()]+/).filter(Boolean);
}

async function showGame(state) {
  GAME = state;
  const turn = $("turn");
  if (state.over) turn.textContent = "The game is over.";
  else turn.textContent = `${state.turn} to move${state.computer_to_move ? " (the computer)" : ""}`;
  $("chance").textContent = state.chance || "";
  $("thinking").hidden = !state.thinking;
  const legal = $("legal");
  legal.replaceChildren();
  for (const move of state.legal) option(legal, move);
  const moves = $("moves");
  moves.replaceChildren();
  for (const move of state.moves) {
    const item = document.createElement("li");
    item.textContent = `${move.player}: ${move.move}`;
    moves.appendChild(item);
  }
  const score = Object.entries(state.score).map(([p, n]) => `${p} ${n}`).join(", ");
  $("result").textContent = state.over ? state.result : `Score: ${score}`;
  $("undo").disabled = !state.can_undo;
  $("computer").disabled = state.over || !state.computer_to_move;
  $("play-move").disabled = state.over;
  $("record").href = `/api/play/${state.id}/record`;
  $("replay").href = `/replay/play/${state.id}`;
  showSvg($("board"), await api("GET", `/api/play/${state.id}/board.svg`));
  document.body.dataset.moves = String(state.moves.length);
  if (state.computer_to_move && !state.over && !BUSY) computerMove();
}

async function act(func) {
  if (BUSY) return;
  BUSY = true;
  try {
    const state = await func();
    BUSY = false;
    say("");
    await showGame(state);
  } catch (error) {
    BUSY = false;
    say(error.message, true);
  }
}

function computerMove() {
  $("thinking").hidden = false;
  act(() => api("POST", `/api/play/${GAME.id}/computer`));
}

function playMove(text) {
  if (!GAME || !text) return;
  act(() => api("POST", `/api/play/${GAME.id}/move`, { move: text }));
}

// A click on the board: the label nearest to it names a space; the legal moves that mention it
// are offered, and played at once when there is only one.
function boardClick(event) {
  const svg = $("board").querySelector("svg");
  if (!svg || !GAME || GAME.over || GAME.computer_to_move) return;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const at = point.matrixTransform(svg.getScreenCTM().inverse());
  const named = new Set(GAME.legal.flatMap(tokens));
  let best = null;
  let bestDistance = Infinity;
  for (const text of svg.querySelectorAll("text")) {
    const name = text.textContent.trim().toLowerCase();
    if (!named.has(name)) continue;
    const box = text.getBBox();
    const matrix = text.getCTM() && svg.getCTM() ? svg.getCTM().inverse().multiply(text.getCTM()) : null;
    let x = box.x + box.width / 2;
    let y = box.y + box.height / 2;
    if (matrix) {
      const p = svg.createSVGPoint();
      p.x = x;
      p.y = y;
      const q = p.matrixTransform(matrix);
      x = q.x;
      y = q.y;
    }
    const distance = Math.hypot(x - at.x, y - at.y);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  if (best === null) return;
  const matching = GAME.legal.filter((move) => tokens(move).includes(best));
  if (matching.length === 1) {
    playMove(matching[0]);
    return;
  }
  const legal = $("legal");
  legal.replaceChildren();
  for (const move of matching) option(legal, move);
  say(`${matching.length} moves use ${best}: choose one`);
  legal.focus();
}

async function playPage() {
  const cat = await catalogue();
  const gameSelect = $("game");
  fillGames(gameSelect, cat.games, (g) => g.seats.length > 0);
  const wanted = new URLSearchParams(location.search);
  const choose = () => {
    const g = cat.games.find((x) => x.name === gameSelect.value);
    $("layout").value = wanted.get("layout") && wanted.get("game") === g.name ? wanted.get("layout") : g.default_spec;
    const seat = $("seat");
    seat.replaceChildren();
    for (const s of g.seats) option(seat, s.player);
  };
  gameSelect.addEventListener("change", choose);
  choose();
  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    let opponent = $("opponent").value;
    if (opponent === "custom") opponent = $("agent-spec").value.trim() || "greedy";
    act(() =>
      api("POST", "/api/play", {
        game: gameSelect.value,
        layout: $("layout").value.trim(),
        opponent: opponent === "" ? null : opponent,
        seat: $("seat").value,
      }),
    );
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    playMove($("move").value.trim() || $("legal").value);
    $("move").value = "";
  });
  $("legal").addEventListener("dblclick", () => playMove($("legal").value));
  $("legal").addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      playMove($("legal").value);
    }
  });
  $("computer").addEventListener("click", computerMove);
  $("undo").addEventListener("click", () => act(() => api("POST", `/api/play/${GAME.id}/undo`)));
  $("board").addEventListener("click", boardClick);
}

// -- the Replay page ----------------------------------------------------------------------------------
function replayPage() {
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
