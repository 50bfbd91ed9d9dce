// coinprint studio: the game table of the Play page. It draws the board for play from the
// server's description (GET /api/play/{id}/table: each space's outline, printed colour, label
// point and room for a coin) and a position's coins, trays and score (in GET /api/play/{id}),
// and turns pointing at it into events. It names no game.
//
// A game's kinds of interaction are small modules beside this one, each registered in
// CoinprintTable.interactions under its name ("pick": pick.js; "sling": sling.js, a Flick
// shot), chosen by the board's ``interaction``. An interaction gets the table and the game, and hears every point:
//   attach(table, hooks) -> { show(game), point(pick), key(event) -> bool, reset() }
// where hooks.play(text) plays a move in the record notation and hooks.say(text) announces.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

// A player's coins are told apart without colour too: the second player's have a dotted rim,
// and the spaces they hold are hatched.
function sideIndex(board, side) {
  return board.players.indexOf(side);
}

class GameTable {
  constructor(holder, trays, board) {
    this.holder = holder;
    this.traysHolder = trays;
    this.board = board;
    this.spaces = new Map(board.spaces.map((space) => [space.id, space]));
    this.listeners = [];
    this.focused = null;
    this.draw();
  }

  // The board: one group per space (its outline, filled as printed, and its label), region
  // borders, and layers for holders, coins and highlights above it.
  draw() {
    const b = this.board;
    const svg = svgElement("svg", {
      viewBox: `0 0 ${b.width} ${b.height}`,
      role: "img",
      "aria-label": "The board",
      class: "table-svg",
    });
    const defs = svgElement("defs", {}, svg);
    const hatch = svgElement("pattern", { id: "hatch", width: "3", height: "3", patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, defs);
    svgElement("rect", { width: "1", height: "3", fill: "#000", "fill-opacity": "0.35" }, hatch);
    // The board's other features under the spaces (a Flick mat: its goal, goal coins, lines
    // and zones; a Coin Age card's edge), each classed by its role.
    const features = svgElement("g", { class: "features" }, svg);
    for (const feature of b.features || []) {
      svgElement("path", { d: feature.d, class: `feature ${feature.role}`, "data-feature": feature.id, ...(feature.player ? { stroke: b.sides[feature.player] || "#333" } : {}) }, features);
    }
    this.spaceLayer = svgElement("g", { class: "spaces" }, svg);
    this.heldLayer = svgElement("g", { class: "held" }, svg);
    const borders = svgElement("g", { class: "borders" }, svg);
    for (const d of b.borders) svgElement("path", { d, class: "border" }, borders);
    this.markLayer = svgElement("g", { class: "marks" }, svg);
    this.pieceLayer = svgElement("g", { class: "pieces" }, svg);
    this.labelLayer = svgElement("g", { class: "labels" }, svg);
    this.shapes = new Map();
    for (const space of b.spaces) {
      const path = svgElement("path", { d: space.d, fill: space.fill, class: "space", "data-space": space.id }, this.spaceLayer);
      this.shapes.set(space.id, path);
    }
    svg.addEventListener("click", (event) => {
      const pick = this.pickAt(event);
      if (pick) this.emit(pick);
    });
    this.svg = svg;
    this.holder.replaceChildren(svg);
  }

  // The space under a point: the space whose outline holds it (a coin or a label lies on its
  // space), else the nearest label point.
  pickAt(event) {
    const found = event.target.closest("[data-space]");
    if (found) return found.dataset.space;
    const at = this.pointOf(event);
    let best = null;
    let distance = Infinity;
    for (const space of this.board.spaces) {
      const d = Math.hypot(space.x - at.x, space.y - at.y);
      if (d < distance && d < space.r * 1.2) [best, distance] = [space.id, d];
    }
    return best;
  }

  // Where a pointer event is on the table, in its mm (y down).
  pointOf(event) {
    const point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const at = point.matrixTransform(this.svg.getScreenCTM().inverse());
    return { x: at.x, y: at.y };
  }

  // A point of the table (mm, y down) in the layout's frame (mm, y up), where records write
  // places, and back.
  toLayout(x, y) {
    return [x - this.board.shift[0], this.board.height - y - this.board.shift[1]];
  }

  fromLayout(x, y) {
    return { x: x + this.board.shift[0], y: this.board.height - y - this.board.shift[1] };
  }

  // What an interaction tells about itself: the board's name for a screen reader and the
  // help under it.
  explain(label, help) {
    this.holder.setAttribute("aria-label", label);
    const shown = document.getElementById("board-help");
    if (shown) shown.textContent = help;
  }

  onPick(listener) {
    this.listeners.push(listener);
  }

  emit(pick) {
    for (const listener of this.listeners) listener(pick);
  }

  // A position: who holds each space, the coins, the trays; the last move marked.
  show(game) {
    this.game = game;
    const b = this.board;
    this.heldLayer.replaceChildren();
    this.labelLayer.replaceChildren();
    this.pieceLayer.replaceChildren();
    const pieces = new Map();
    for (const piece of game.pieces) pieces.set(piece.space, piece);
    for (const space of b.spaces) {
      const holder = game.held[space.id];
      const piece = pieces.get(space.id);
      // A space held by the coin on it shows it by the coin; others (a claimed country) are
      // tinted in the holder's colour, hatched for the second player, and say whose they are.
      const shownByCoin = piece && piece.side === holder;
      if (holder && !shownByCoin) {
        const colour = b.sides[holder] || "#dddddd";
        svgElement("path", { d: space.d, fill: colour, "fill-opacity": "0.55", class: "held-tint" }, this.heldLayer);
        if (sideIndex(b, holder) === 1) svgElement("path", { d: space.d, fill: "url(#hatch)", class: "held-hatch" }, this.heldLayer);
      }
      const size = Math.max(2.5, Math.min(space.r * (piece ? 0.34 : 0.55), 9));
      const y = piece ? space.y + space.r * 0.86 : space.y + size * 0.35;
      const label = svgElement("text", { x: space.x, y, "font-size": size.toFixed(2), class: piece ? "label under" : "label", fill: (holder && !shownByCoin) || piece ? "#111111" : space.ink, "data-space": space.id }, this.labelLayer);
      label.textContent = space.name;
      if (holder && !shownByCoin) {
        const owner = svgElement("text", { x: space.x, y: space.y - space.r * 0.55, "font-size": (size * 0.7).toFixed(2), class: "label owner", "data-space": space.id }, this.labelLayer);
        owner.textContent = `${holder}'s`;
      }
    }
    for (const piece of game.pieces) {
      const space = this.spaces.get(piece.space);
      // A coin lying anywhere (a Flick mat) is drawn where it lies, at its true size.
      if (piece.x !== undefined) this.coin(this.pieceLayer, piece.x, piece.y, piece.r, piece, "").dataset.coin = piece.text;
      else if (space) this.coin(this.pieceLayer, space.x, space.y, space.r * 0.62 * piece.scale, piece, space.id);
    }
    this.mark(game.last ? game.last.picks : [], "last");
    this.showTrays(game.trays);
    this.svg.setAttribute("aria-label", this.describe(game));
  }

  // One coin: a disc in its owner's colour, its letter, a dotted rim for the second player,
  // a ring (castle: solid, anything else: dashed), its stack's height.
  coin(parent, x, y, r, piece, spaceId) {
    const b = this.board;
    const group = svgElement("g", { class: "coin" }, parent);
    if (spaceId) group.dataset.space = spaceId;
    const colour = b.sides[piece.side] || "#e4e4e4";
    for (let n = Math.min(piece.stack || 1, 4) - 1; n > 0; n--) {
      svgElement("circle", { cx: x + n * r * 0.12, cy: y + n * r * 0.12, r, fill: colour, stroke: "#222", "stroke-width": r * 0.05 }, group);
    }
    svgElement("circle", { cx: x, cy: y, r, fill: colour, stroke: "#222", "stroke-width": r * 0.06 }, group);
    if (sideIndex(b, piece.side) === 1) {
      svgElement("circle", { cx: x, cy: y, r: r * 0.82, fill: "none", stroke: "#222", "stroke-width": r * 0.07, "stroke-dasharray": `${r * 0.12} ${r * 0.12}` }, group);
    }
    if (piece.ring) {
      const ring = svgElement("circle", { cx: x, cy: y, r: r * 1.18, fill: "none", stroke: "#111", "stroke-width": r * (piece.ring === "castle" ? 0.22 : 0.1), class: `ring ${piece.ring}` }, group);
      if (piece.ring !== "castle") ring.setAttribute("stroke-dasharray", `${r * 0.2} ${r * 0.15}`);
    }
    if (piece.text) {
      const text = svgElement("text", { x, y: y + r * 0.36, "font-size": (r * 1.0).toFixed(2), class: "coin-letter" }, group);
      text.textContent = piece.text;
    }
    if ((piece.stack || 1) > 1) {
      const badge = svgElement("text", { x: x + r * 0.95, y: y + r * 1.05, "font-size": (r * 0.7).toFixed(2), class: "stack" }, group);
      badge.textContent = `×${piece.stack}`;
    }
    return group;
  }

  // Outline the spaces ``ids`` with the class ``kind`` ("last", "target", "picked", "focus").
  mark(ids, kind) {
    this.markLayer.querySelectorAll(`.${kind}`).forEach((node) => node.remove());
    for (const id of ids) {
      const space = this.spaces.get(id);
      if (!space) continue;
      svgElement("path", { d: space.d, class: `mark ${kind}` }, this.markLayer);
      if (kind === "target") svgElement("circle", { cx: space.x, cy: space.y - space.r * 0.6, r: Math.min(space.r * 0.12, 2.2), class: `mark ${kind} dot` }, this.markLayer);
    }
  }

  // The trays beside the board (banks, supply, a throw): each coin a button when it can be picked.
  showTrays(trays) {
    const holder = this.traysHolder;
    holder.replaceChildren();
    for (const tray of trays) {
      const box = document.createElement("div");
      box.className = "tray";
      const title = document.createElement("h2");
      title.textContent = tray.title;
      box.appendChild(title);
      const row = document.createElement("div");
      row.className = "tray-coins";
      for (const coin of tray.coins) {
        const element = document.createElement(coin.pick ? "button" : "span");
        element.className = "tray-coin";
        if (coin.pick) {
          element.type = "button";
          element.dataset.pick = coin.pick;
          element.disabled = true;
          element.addEventListener("click", () => this.emit(coin.pick));
        }
        const r = 9 * coin.scale;
        const svg = svgElement("svg", { viewBox: "-12 -12 24 24", width: "44", height: "44", "aria-hidden": "true" });
        this.coin(svg, 0, 0, r, { text: coin.text, side: coin.side, ring: coin.ring, stack: 1 }, "");
        element.appendChild(svg);
        const caption = document.createElement("span");
        caption.className = "caption";
        caption.textContent = coin.caption || (coin.count > 1 ? `×${coin.count}` : "");
        element.appendChild(caption);
        // Its name: the words shown (the count), then what the coin is, for a screen reader.
        const what = document.createElement("span");
        what.className = "visually-hidden";
        what.textContent = ` ${(this.game && this.game.pick_words[coin.pick]) || `${coin.text || "coin"} ${coin.side}`.trim()}`;
        element.appendChild(what);
        row.appendChild(element);
      }
      box.appendChild(row);
      holder.appendChild(box);
    }
  }

  // Which tray coins may be picked now.
  enableTray(picks) {
    this.traysHolder.querySelectorAll("button[data-pick]").forEach((button) => {
      button.disabled = !picks.has(button.dataset.pick);
      button.classList.toggle("target", picks.has(button.dataset.pick));
    });
  }

  describe(game) {
    const where = (p) => (this.spaces.get(p.space) ? `on ${this.spaces.get(p.space).name}` : p.space === "goal" ? "in the goal" : "outside the goal");
    const coins = game.pieces.map((p) => `${p.text || "coin"} of ${p.side || "no one"} ${where(p)}`);
    return `The board: ${coins.length ? coins.join("; ") : "no coins yet"}`;
  }

  name(id) {
    const space = this.spaces.get(id);
    return space ? space.name : id;
  }

  // Keyboard: the arrow keys move a focus ring to the nearest space that way, Enter picks it.
  key(event) {
    const all = this.board.spaces;
    if (!all.length) return false;
    const here = this.spaces.get(this.focused) || all[0];
    const ways = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
    if (event.key in ways) {
      const [dx, dy] = ways[event.key];
      let best = this.focused ? null : here;
      let score = Infinity;
      for (const space of all) {
        const ex = space.x - here.x;
        const ey = space.y - here.y;
        const along = ex * dx + ey * dy;
        if (along <= 0.01) continue;
        const value = along + 2 * Math.abs(ex * dy - ey * dx);
        if (value < score) [best, score] = [space, value];
      }
      if (best) this.focus(best.id);
      return true;
    }
    if (event.key === "Enter" || event.key === " ") {
      this.emit(here.id);
      this.focus(here.id);
      return true;
    }
    return false;
  }

  focus(id) {
    this.focused = id;
    this.mark([id], "focus");
  }
}

window.CoinprintTable = { GameTable, interactions: {}, svgElement };
