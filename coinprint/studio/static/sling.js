// coinprint studio, the table's "sling" interaction: a shot is made by pulling one of your
// coins back, as a sling is. Press on the coin, drag away from where it should go and let go:
// the coin leaves the other way, and the farther the pull, the faster (the dotted line shows
// where it would stop on its own, v²/2μg, with the table's friction). To start the shot from
// elsewhere (anywhere outside the goal, not on a coin), tap your coin, then tap the place. The
// keyboard does all of it: C picks your next coin, the arrow keys turn and stretch the sling,
// Enter shoots, Escape lets go. The shot is sent as the record's shot event with its
// parameters; the server's physics plays it and the page animates the coins sliding.
"use strict";

(function registerSling() {
  const { svgElement } = window.CoinprintTable;
  const GAIN = 4; // the coin would stop GAIN times the pull away from where it starts
  const MIN_PULL_MM = 3; // a shorter pull is a tap, not a shot
  const FRAME_MS = 40; // the server's motion pictures are 40 ms of the shot apart

  function attach(table, hooks) {
    const board = table.board;
    const facts = board.facts || {};
    const svg = table.svg;
    const layer = svgElement("g", { class: "sling-layer" }, svg);
    let game = null;
    let chosen = null; // { coin, x, y }: the coin to shoot and where the shot starts (table mm)
    let pull = null; // { dx, dy }: from the coin to the pointer (table mm)
    let dragging = false;
    let animating = null;
    let shownMoves = -1;

    function mine() {
      if (!game || game.over || game.computer_to_move || game.thinking) return [];
      return game.pieces.filter((p) => p.side === game.turn && p.space !== "goal" && p.x !== undefined);
    }

    function offTable() {
      const tray = (game && game.trays.find((t) => t.coins.some((c) => c.pick))) || null;
      return tray ? tray.coins.filter((c) => c.side === game.turn) : [];
    }

    function insideGoal(x, y) {
      const polygon = facts.polygon || [];
      let inside = false;
      for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
        const [xi, yi] = polygon[i];
        const [xj, yj] = polygon[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      return inside;
    }

    function speedOf(pullMm) {
      const stopMm = GAIN * pullMm;
      const speed = Math.sqrt(2 * facts.friction * facts.gravity_mm_s2 * stopMm) / 1000;
      return Math.min(speed, facts.max_speed);
    }

    function stopOf(speed) {
      return ((speed * 1000) ** 2) / (2 * facts.friction * facts.gravity_mm_s2);
    }

    function draw() {
      layer.replaceChildren();
      svg.querySelectorAll(".coin.chosen").forEach((c) => c.classList.remove("chosen"));
      if (!chosen) return;
      const here = svg.querySelector(`.coin[data-coin="${CSS.escape(chosen.coin)}"]`);
      if (here && here.dataset.placed !== "1") here.classList.add("chosen");
      const piece = game.pieces.find((p) => p.text === chosen.coin);
      const r = piece ? piece.r : 12;
      const moved = !piece || piece.x === undefined || Math.hypot(piece.x - chosen.x, piece.y - chosen.y) > 0.01;
      if (moved) {
        const ghost = table.coin(layer, chosen.x, chosen.y, r, { text: chosen.coin, side: game.turn }, "");
        ghost.classList.add("chosen");
        ghost.dataset.placed = "1";
      }
      if (!pull) return;
      const length = Math.hypot(pull.dx, pull.dy);
      if (length < MIN_PULL_MM) return;
      const speed = speedOf(length);
      const stop = stopOf(speed);
      const ux = -pull.dx / length;
      const uy = -pull.dy / length;
      svgElement("line", { x1: chosen.x, y1: chosen.y, x2: chosen.x + pull.dx, y2: chosen.y + pull.dy, class: "sling" }, layer);
      svgElement("line", { x1: chosen.x, y1: chosen.y, x2: chosen.x + ux * stop, y2: chosen.y + uy * stop, class: "sling-aim" }, layer);
      svgElement("circle", { cx: chosen.x + ux * stop, cy: chosen.y + uy * stop, r, class: "sling-stop" }, layer);
      const text = svgElement("text", { x: chosen.x + pull.dx, y: chosen.y + pull.dy - r * 0.6, class: "sling-text" }, layer);
      text.textContent = `${speed.toFixed(2)} m/s`;
      svg.parentElement.dataset.speed = speed.toFixed(3);
    }

    function choose(coin, x, y) {
      chosen = { coin, x, y };
      pull = null;
      draw();
      hooks.say(`${coin} chosen: drag from it away from where it should go, or tap where it should start`);
    }

    function shoot() {
      if (!chosen || !pull) return;
      const length = Math.hypot(pull.dx, pull.dy);
      if (length < MIN_PULL_MM) return;
      // The direction in the layout's frame (y up) is the pull turned round.
      const direction = (Math.atan2(pull.dy, -pull.dx) * 180) / Math.PI;
      const shot = { shot: game.turn, coin: chosen.coin, at: table.toLayout(chosen.x, chosen.y).map((v) => Math.round(v * 100) / 100), direction: Math.round(direction * 100) / 100, speed: Math.round(speedOf(length) * 1000) / 1000 };
      chosen = null;
      pull = null;
      draw();
      hooks.play(shot);
    }

    function coinAt(event) {
      const found = event.target.closest(".coin[data-coin]");
      if (!found) return null;
      return mine().find((p) => p.text === found.dataset.coin) || null;
    }

    // A press on the chosen coin (or on another of yours, which it chooses) starts the pull; a
    // press elsewhere, with a coin chosen, puts the shot's start there.
    svg.addEventListener("pointerdown", (event) => {
      if (!game || animating || (!mine().length && !offTable().length)) return;
      const at = table.pointOf(event);
      const onChosen = chosen && Math.hypot(at.x - chosen.x, at.y - chosen.y) <= radius();
      const coin = onChosen ? null : coinAt(event);
      if (coin) choose(coin.text, coin.x, coin.y);
      else if (!onChosen) {
        if (!chosen) return;
        if (insideGoal(at.x, at.y)) {
          hooks.say("a shot starts outside the goal", true);
          return;
        }
        chosen = { ...chosen, x: at.x, y: at.y };
        draw();
        hooks.say(`${chosen.coin} will start here; now drag from it to aim`);
        return;
      }
      dragging = true;
      svg.setPointerCapture(event.pointerId);
      pull = { dx: 0, dy: 0 };
      event.preventDefault();
    });

    function radius() {
      const piece = game.pieces.find((p) => p.r);
      return piece ? piece.r : 12;
    }

    svg.addEventListener("pointermove", (event) => {
      if (!dragging || !chosen) return;
      const at = table.pointOf(event);
      pull = { dx: at.x - chosen.x, dy: at.y - chosen.y };
      draw();
    });

    function release(event) {
      if (!dragging) return;
      dragging = false;
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
      if (pull && Math.hypot(pull.dx, pull.dy) >= MIN_PULL_MM) shoot();
      else {
        pull = null;
        draw();
      }
    }
    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", (event) => {
      dragging = false;
      pull = null;
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
      draw();
    });

    // The last shot under way: the coins slide picture by picture, then the position.
    function animate(state) {
      const frames = state.motion || [];
      if (!frames.length) return;
      const moving = svgElement("g", { class: "motion" }, svg);
      table.pieceLayer.style.visibility = "hidden";
      const pieces = new Map(state.pieces.map((p) => [p.text, p]));
      let index = 0;
      const step = () => {
        moving.replaceChildren();
        for (const at of frames[index]) {
          const piece = pieces.get(at.text) || { text: at.text, side: "", r: 12 };
          table.coin(moving, at.x, at.y, piece.r || 12, piece, "");
        }
        index += 1;
        if (index < frames.length) animating = setTimeout(step, FRAME_MS);
        else {
          animating = setTimeout(() => {
            moving.remove();
            table.pieceLayer.style.visibility = "";
            animating = null;
            svg.parentElement.dataset.animated = String(state.moves.length);
          }, FRAME_MS);
        }
      };
      step();
    }

    function key(event) {
      if (!game) return false;
      const coins = mine();
      if (event.key === "c" || event.key === "C") {
        if (!coins.length) return false;
        const at = chosen ? coins.findIndex((p) => p.text === chosen.coin) : -1;
        const next = coins[(at + 1) % coins.length];
        choose(next.text, next.x, next.y);
        pull = { dx: 0, dy: 20 };
        draw();
        return true;
      }
      if (!chosen || !pull) return false;
      const length = Math.hypot(pull.dx, pull.dy) || 1;
      const angle = Math.atan2(pull.dy, pull.dx);
      const turn = { ArrowLeft: -Math.PI / 90, ArrowRight: Math.PI / 90 }[event.key];
      const stretch = { ArrowUp: 1, ArrowDown: -1 }[event.key];
      if (turn !== undefined) {
        pull = { dx: Math.cos(angle + turn) * length, dy: Math.sin(angle + turn) * length };
      } else if (stretch !== undefined) {
        const longer = Math.max(MIN_PULL_MM, length + stretch);
        pull = { dx: Math.cos(angle) * longer, dy: Math.sin(angle) * longer };
      } else if (event.key === "Enter" || event.key === " ") {
        shoot();
        return true;
      } else if (event.key === "Escape") {
        chosen = null;
        pull = null;
        draw();
        hooks.say("sling let go");
        return true;
      } else return false;
      draw();
      hooks.say(`aim ${Math.round(((Math.atan2(pull.dy, -pull.dx) * 180) / Math.PI + 360) % 360)}°, ${speedOf(Math.hypot(pull.dx, pull.dy)).toFixed(2)} m/s`);
      return true;
    }

    table.explain("The mat: C picks your next coin, the arrow keys aim and pull, Enter shoots, Escape lets go", "Press on one of your coins, pull it back away from where it should go, and let go: the dotted line ends where it would stop. Tap your coin, then a place outside the goal, to start from there. Keyboard: C picks a coin, arrow keys aim and pull, Enter shoots, Escape lets go.");

    return {
      show(state) {
        game = state;
        svg.classList.add("slinging");
        if (state.moves.length !== shownMoves) {
          chosen = null;
          pull = null;
          if (shownMoves >= 0 && state.motion && state.motion.length) animate(state);
          else svg.parentElement.dataset.animated = String(state.moves.length);
          shownMoves = state.moves.length;
        }
        draw();
        hooks.choices.replaceChildren();
        for (const coin of offTable()) {
          const button = document.createElement("button");
          button.type = "button";
          button.textContent = `Put ${coin.text} back on the table`;
          button.addEventListener("click", () => {
            const start = mine()[0];
            choose(coin.pick, start ? start.x : board.width / 2, start ? start.y : board.height - 15);
          });
          hooks.choices.appendChild(button);
        }
      },
      point() {},
      reset() {
        chosen = null;
        pull = null;
        draw();
      },
      key,
    };
  }

  window.CoinprintTable.interactions.sling = { attach };
})();
