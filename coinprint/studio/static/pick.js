// coinprint studio, the table's "pick" interaction: a move is made by pointing at things one
// after another (a space, a coin on it, a coin of a tray, a choice such as "flip"). The server
// lists, for every legal move, the ways to pick it (game.picks, parallel to game.legal); after
// each pick only the moves that way starts with remain: the next picks are highlighted, and
// the move is played as soon as one remains, or when "End the turn" is chosen (a turn of
// several actions may stop after any). Choices off the board are buttons (game.pick_words).
"use strict";

(function registerPick() {
  function attach(table, hooks) {
    const choices = hooks.choices;
    let game = null;
    let picked = [];

    // The legal moves (index) whose some way of picking starts with ``picked``: the moves
    // already complete, and the picks that may come next.
    function follow() {
      const complete = new Set();
      const next = new Set();
      const open = new Set();
      game.picks.forEach((ways, index) => {
        for (const way of ways) {
          if (way.length < picked.length || picked.some((pick, i) => way[i] !== pick)) continue;
          open.add(index);
          if (way.length === picked.length) complete.add(index);
          else next.add(way[picked.length]);
        }
      });
      return { complete, next, open };
    }

    function button(label, action, id) {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = label;
      if (id) element.id = id;
      element.addEventListener("click", action);
      choices.appendChild(element);
      return element;
    }

    function refresh() {
      choices.replaceChildren();
      table.holder.dataset.picks = String(picked.length); // how far the move is made (for tests)
      if (!game || !game.picks.length) {
        table.mark([], "target");
        table.mark([], "picked");
        table.enableTray(new Set());
        return;
      }
      const { complete, next } = follow();
      table.mark([...next].filter((p) => table.spaces.has(p)), "target");
      table.mark(picked.filter((p) => table.spaces.has(p)), "picked");
      table.enableTray(next);
      for (const pick of next) {
        if (table.spaces.has(pick)) continue;
        if (table.traysHolder.querySelector(`button[data-pick="${CSS.escape(pick)}"]`)) continue;
        button(game.pick_words[pick] || pick, () => point(pick)).dataset.pick = pick;
      }
      // A turn that may stop here, or one with nothing to do (a throw without a match on an
      // empty card): the player ends it.
      if (complete.size === 1 && (next.size > 0 || !picked.length)) {
        const [index] = complete;
        button(picked.length ? "End the turn here" : "End the turn without acting", () => hooks.play(game.legal[index]), "end-turn");
      }
      if (picked.length) button("Cancel", () => reset(true), "cancel-pick");
    }

    function point(pick) {
      if (!game || !game.picks.length) return;
      const trial = [...picked, pick];
      const before = picked;
      picked = trial;
      const { complete, next, open } = follow();
      if (!open.size) {
        picked = before;
        hooks.say(`${describe(pick)} is not part of a legal move now`, true);
        return;
      }
      // One move left, or a complete way with nothing after it: play it.
      if (open.size === 1 || (complete.size && !next.size)) {
        const [index] = open.size === 1 ? open : complete;
        picked = [];
        hooks.play(game.legal[index]);
        return;
      }
      hooks.say(`picked ${describe(pick)}; ${next.size} ways on`);
      refresh();
    }

    function describe(pick) {
      return table.spaces.has(pick) ? `space ${table.name(pick)}` : game.pick_words[pick] || pick;
    }

    function reset(announce) {
      picked = [];
      refresh();
      if (announce) hooks.say("picks cancelled");
    }

    return {
      show(state) {
        game = state;
        picked = [];
        refresh();
      },
      point,
      reset,
      key(event) {
        if (event.key === "Escape" && picked.length) {
          reset(true);
          return true;
        }
        return false;
      },
    };
  }

  window.CoinprintTable.interactions.pick = { attach };
})();
