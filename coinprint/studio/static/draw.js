// coinprint studio, the table's "draw" interaction: a move is a line drawn by hand (the Map's
// arcs, each the edge of a new country). Press on the map's outline, draw outward, and let go
// on the outline. While the line is drawn the server judges it live (POST
// /api/play/{id}/preview): the country it would close is shaded, with its neighbour count and
// whether the coin fits, and a line the rules refuse turns red with the reason. Moving back
// along the line rubs it out; a refused line stays to be trimmed ("Trim the end") or taken
// back. The ends snap onto the outline, and the line is simplified before it is sent as the
// record's move ("arc X,Y X,Y …", in the layout's mm). The keyboard chooses among the arcs the
// computer would draw: P shows the next, Enter draws it, Escape takes the line back.
"use strict";

(function registerDraw() {
  const { svgElement } = window.CoinprintTable;
  const STEP_MM = 0.5; // a point is kept each half millimetre the pointer moves
  const SIMPLIFY_MM = 0.2; // the line sent strays at most this far from the line drawn
  const SNAP_PX = 16; // an end this near the outline on the screen is put on it
  const RUB_MM = 1.5; // coming back this near an earlier point rubs the line out to there
  const TRIM_MM = 10; // "Trim the end" takes this much off the line

  function attach(table, hooks) {
    const board = table.board;
    const facts = board.facts || {};
    const outline = facts.polygon || [];
    const svg = table.svg;
    const guide = svgElement("path", { d: outline.length ? `M${outline.map((p) => p.join(",")).join(" L")} Z` : "", class: "draw-outline" }, svg);
    const layer = svgElement("g", { class: "draw-layer" }, svg);
    let game = null;
    let stroke = []; // the line drawn, points in table mm
    let drawing = false;
    let judged = null; // the server's last preview, for ``judgedFor``
    let judgedFor = "";
    let asking = null; // the judging under way (a promise), or null
    let shownMoves = -1;
    let proposal = -1;
    let given = null; // the arc shown by P or a hint, sent as written while the line is not touched

    function mayDraw() {
      return game && !game.over && !game.computer_to_move && !game.thinking;
    }

    function mmPerPixel() {
      const matrix = svg.getScreenCTM();
      return matrix ? 1 / Math.hypot(matrix.a, matrix.b) : 1;
    }

    // The nearest point of the outline to ``p`` (table mm), and how far it is.
    function onOutline(p) {
      let best = { x: p.x, y: p.y, d: Infinity };
      for (let i = 0; i < outline.length; i++) {
        const [ax, ay] = outline[i];
        const [bx, by] = outline[(i + 1) % outline.length];
        const dx = bx - ax;
        const dy = by - ay;
        const length2 = dx * dx + dy * dy || 1;
        const t = Math.max(0, Math.min(1, ((p.x - ax) * dx + (p.y - ay) * dy) / length2));
        const x = ax + t * dx;
        const y = ay + t * dy;
        const d = Math.hypot(p.x - x, p.y - y);
        if (d < best.d) best = { x, y, d };
      }
      return best;
    }

    function snaps(p) {
      return onOutline(p).d / mmPerPixel() <= SNAP_PX;
    }

    // A point in the layout's frame, as the record's arc writes it (a ten-thousandth of a mm).
    function toLayout(p) {
      return table.toLayout(p.x, p.y).map((v) => Math.round(v * 1e4) / 1e4);
    }

    // The line without the points it can spare (Ramer–Douglas–Peucker), the ends kept.
    function simplify(points) {
      if (points.length < 3) return points.slice();
      const keep = new Array(points.length).fill(false);
      keep[0] = keep[points.length - 1] = true;
      const spans = [[0, points.length - 1]];
      while (spans.length) {
        const [first, last] = spans.pop();
        const a = points[first];
        const b = points[last];
        const length = Math.hypot(b.x - a.x, b.y - a.y);
        let far = -1;
        let farthest = SIMPLIFY_MM;
        for (let i = first + 1; i < last; i++) {
          const p = points[i];
          const d = length ? Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length : Math.hypot(p.x - a.x, p.y - a.y);
          if (d > farthest) [far, farthest] = [i, d];
        }
        if (far > 0) {
          keep[far] = true;
          spans.push([first, far], [far, last]);
        }
      }
      return points.filter((_, i) => keep[i]);
    }

    // The arc as it would be if the pointer let go now: its last point put on the outline
    // (where it is near enough, else the nearest point of the outline, a dashed closing line).
    function candidate() {
      if (given) return given;
      if (stroke.length < 2) return null;
      const last = stroke[stroke.length - 1];
      const foot = onOutline(last);
      const ends = snaps(last) ? [...stroke.slice(0, -1), { x: foot.x, y: foot.y }] : [...stroke, { x: foot.x, y: foot.y }];
      return "arc " + simplify(ends).map((p) => toLayout(p).join(",")).join(" ");
    }

    // Judge the line as it stands, one request at a time: the promise of the judging under way.
    function ask() {
      const text = candidate();
      if (asking) return asking;
      if (!text || text === judgedFor) return Promise.resolve();
      asking = judge(text).finally(() => {
        asking = null;
        if (candidate() !== judgedFor) ask(); // the line moved on while the server judged it
      });
      return asking;
    }

    async function judge(text) {
      try {
        judged = await hooks.preview(text);
      } catch (error) {
        judged = { ok: false, refusal: error.message, d: "", spaces: [], lines: [] };
      }
      judgedFor = text;
      draw();
      if (!drawing && !judged.ok && judgedFor === candidate()) hooks.say(judged.refusal, true);
    }

    function status() {
      const lines = [];
      if (!stroke.length) {
        if (mayDraw()) lines.push(`${facts.drawer} draws country ${facts.country} of ${facts.countries}: press on the outline and draw outward`);
      } else if (judged && judgedFor === candidate()) {
        lines.push(...judged.lines);
        if (!judged.ok) lines.push(judged.refusal);
      }
      return lines;
    }

    function draw() {
      layer.replaceChildren();
      const current = judged && judgedFor === candidate() && stroke.length ? judged : null;
      if (current && current.d) svgElement("path", { d: current.d, class: `draw-country ${current.ok ? "ok" : "refused"}` }, layer);
      table.mark(current ? current.spaces : [], "near");
      if (stroke.length) {
        const refused = current && !current.ok;
        const d = `M${stroke.map((p) => `${p.x.toFixed(2)},${p.y.toFixed(2)}`).join(" L")}`;
        svgElement("path", { d, class: `draw-stroke${refused ? " refused" : ""}` }, layer);
        const last = stroke[stroke.length - 1];
        if (stroke.length > 1 && !snaps(last)) {
          const foot = onOutline(last);
          svgElement("line", { x1: last.x, y1: last.y, x2: foot.x, y2: foot.y, class: "draw-closing" }, layer);
        }
        svgElement("circle", { cx: stroke[0].x, cy: stroke[0].y, r: 1.2, class: "draw-end" }, layer);
      }
      const words = status();
      svg.parentElement.dataset.drawState = current ? (current.ok ? "ok" : "refused") : stroke.length ? "drawing" : "idle";
      const shown = document.getElementById("draw-status");
      if (shown) shown.textContent = words.join(" · ");
      const trim = document.getElementById("draw-trim");
      if (trim) trim.disabled = drawing || stroke.length < 2;
      const clear = document.getElementById("draw-clear");
      if (clear) clear.disabled = drawing || !stroke.length;
    }

    function clearLine(words) {
      given = null;
      stroke = [];
      judged = null;
      judgedFor = "";
      proposal = -1;
      draw();
      if (words) hooks.say(words);
    }

    function send() {
      const text = candidate();
      if (!text) return;
      if (!given && !snaps(stroke[stroke.length - 1])) {
        hooks.say("end the line on the map's outline (or draw back along it to rub it out)", true);
        return;
      }
      if (judged && judgedFor === text && !judged.ok) {
        hooks.say(judged.refusal, true);
        return;
      }
      clearLine();
      hooks.play(text);
    }

    // A press on the outline starts a line; a press on the end of a line kept (refused or
    // let go in the air) goes on with it.
    svg.addEventListener("pointerdown", (event) => {
      if (!mayDraw() || event.button > 0) return;
      const at = table.pointOf(event);
      const end = stroke[stroke.length - 1];
      if (end && Math.hypot(at.x - end.x, at.y - end.y) / mmPerPixel() <= SNAP_PX) {
        if (snaps(end) && stroke.length > 1) stroke.pop(); // let go on the outline: draw on from before it
      } else if (snaps(at)) {
        const foot = onOutline(at);
        stroke = [{ x: foot.x, y: foot.y }];
        judged = null;
        judgedFor = "";
      } else {
        hooks.say("start on the map's outline: press on its edge and draw outward", true);
        return;
      }
      drawing = true;
      proposal = -1;
      given = null;
      svg.setPointerCapture(event.pointerId);
      event.preventDefault();
      draw();
    });

    svg.addEventListener("pointermove", (event) => {
      if (!drawing) return;
      const events = event.getCoalescedEvents ? event.getCoalescedEvents() : [event];
      for (const one of events.length ? events : [event]) {
        const at = table.pointOf(one);
        const last = stroke[stroke.length - 1];
        if (Math.hypot(at.x - last.x, at.y - last.y) < STEP_MM) continue;
        // Back along the line: rub it out to the point come back to.
        let back = -1;
        for (let i = 0; i < stroke.length - 4; i++) {
          if (Math.hypot(at.x - stroke[i].x, at.y - stroke[i].y) < RUB_MM) {
            back = i;
            break;
          }
        }
        if (back >= 0) stroke = stroke.slice(0, back + 1);
        else stroke.push(at);
      }
      draw();
      ask();
    });

    function release(event) {
      if (!drawing) return;
      drawing = false;
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
      if (stroke.length < 2) {
        clearLine();
        return;
      }
      const last = stroke[stroke.length - 1];
      if (snaps(last)) {
        const foot = onOutline(last);
        stroke[stroke.length - 1] = { x: foot.x, y: foot.y };
      }
      draw();
      finish();
    }

    // Let go: the line is sent once the server has judged it as it stands, unless refused.
    async function finish() {
      const text = candidate();
      if (!snaps(stroke[stroke.length - 1])) {
        hooks.say("the line ends in the air: press on its end to go on, and end it on the map's outline");
        return;
      }
      while (asking) await asking;
      if (judgedFor !== text) await ask();
      if (candidate() === text && !drawing) send();
    }

    svg.addEventListener("pointerup", release);
    svg.addEventListener("pointercancel", (event) => {
      drawing = false;
      if (svg.hasPointerCapture(event.pointerId)) svg.releasePointerCapture(event.pointerId);
      draw();
    });

    // An arc in the record's notation as a line in table mm.
    function lineOf(text) {
      const numbers = String(text).match(/-?[\d.]+(?:e-?\d+)?/g) || [];
      const points = [];
      for (let i = 0; i + 1 < numbers.length; i += 2) points.push(table.fromLayout(Number(numbers[i]), Number(numbers[i + 1])));
      return points;
    }

    // The arcs the computer would draw (the legal moves).
    function proposals() {
      return (game ? game.legal : []).map(lineOf);
    }

    // A hint: the arc shown as the line to draw, judged; Enter draws it.
    function suggest(text) {
      if (!mayDraw() || !String(text).startsWith("arc")) return false;
      stroke = lineOf(text);
      proposal = -1;
      given = String(text);
      draw();
      ask();
      return true;
    }

    function key(event) {
      if (!mayDraw()) return false;
      if (event.key === "p" || event.key === "P") {
        const all = proposals();
        if (!all.length) return false;
        proposal = (proposal + 1) % all.length;
        stroke = all[proposal];
        given = String(game.legal[proposal]);
        draw();
        ask();
        hooks.say(`arc ${proposal + 1} of ${all.length} the computer would draw: Enter draws it, P shows the next`);
        return true;
      }
      if ((event.key === "Enter" || event.key === " ") && stroke.length > 1) {
        send();
        return true;
      }
      if (event.key === "Escape" && stroke.length) {
        clearLine("line taken back");
        return true;
      }
      return false;
    }

    function trim() {
      given = null;
      let left = TRIM_MM;
      while (stroke.length > 1 && left > 0) {
        const last = stroke.pop();
        const before = stroke[stroke.length - 1];
        left -= Math.hypot(last.x - before.x, last.y - before.y);
      }
      judged = null;
      judgedFor = "";
      draw();
      hooks.say("the end of the line is trimmed: press on its end to go on");
    }

    table.explain("The map being drawn: P shows an arc the computer would draw, Enter draws it, Escape takes it back", "Press on the map's outline, draw the new country's edge outward, and let go on the outline. The country is shaded as you draw, with its neighbours and the coin's fit; a line the rules refuse turns red. Draw back along the line to rub it out. Keyboard: P shows an arc the computer would draw, Enter draws it, Escape takes it back.");

    return {
      show(state) {
        game = state;
        svg.classList.add("drawing");
        guide.classList.toggle("active", Boolean(mayDraw()));
        if (state.moves.length !== shownMoves) {
          shownMoves = state.moves.length;
          given = null;
          stroke = [];
          judged = null;
          judgedFor = "";
        }
        const choices = hooks.choices;
        choices.replaceChildren();
        const line = document.createElement("p");
        line.id = "draw-status";
        line.className = "draw-status";
        line.setAttribute("aria-live", "off");
        choices.appendChild(line);
        for (const [id, words, action] of [
          ["draw-trim", "Trim the end", trim],
          ["draw-clear", "Take the line back", () => clearLine("line taken back")],
        ]) {
          const button = document.createElement("button");
          button.type = "button";
          button.id = id;
          button.textContent = words;
          button.addEventListener("click", action);
          choices.appendChild(button);
        }
        draw();
      },
      point() {},
      reset() {
        clearLine();
      },
      suggest,
      key,
    };
  }

  window.CoinprintTable.interactions.draw = { attach };
})();
