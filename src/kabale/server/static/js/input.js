// The player's hands on the table: pressing, dragging and tapping cards, the keyboard (Enter or
// Space on a pile, the shortcuts, notation typed into the move box). Every move it makes goes
// through the page's queue (`page.play`, `page.playDecided`); a move that is not legal is
// never played: the server is asked why (reasons.js), and the page says so in words.

import { bestTarget } from "./drag.js";
import { bubble, hideBubble, say } from "./feedback.js";
import { cap, t } from "./i18n.js";
import { focusEl } from "./keyboard.js";
import { bestMove, findMove, moveByText, parseMove } from "./moves.js";
import { cardName, liftedWords } from "./names.js";
import { explain, explainText } from "./reasons.js";
import { pileElements, targets } from "./table.js";

const $ = (id) => document.getElementById(id);

/** The input handlers of the page `page`: {S (its state), table, play, playDecided, refuse,
 *  undoRedo, markHeld, help, ending, dealing}. */
export function createInput(page) {
  const { S, table, play, playDecided, refuse, undoRedo, markHeld, help, ending, dealing } = page;

  /** A move typed in notation: played when legal, else explained in words. */
  function playTyped(text, anchor) {
    const m = moveByText(S.body, text);
    if (m) return play(m.text);
    if (!parseMove(text)) return refuse(t("reason.not_a_move", { text }), anchor);
    return refuse(explainText(S.body, text, true), anchor);
  }


  /** What pressing on `el` lifts: {source, count, els}, or {reason} when nothing can be. */
  function lift(el) {
    if (!S.body || S.review || S.body.status !== "playing" || S.body.observation.outcome !== "playing") {
      return { reason: t("reason.game_over") };
    }
    const obs = S.body.observation;
    const pile = el.dataset.pile, index = Number(el.dataset.index);
    if (/^\d+$/.test(pile)) {
      const c = Number(pile) - 1;
      // a card dealt face down lifts nothing (the observation's `down` says which), shown or not
      if (!el.dataset.code) return { reason: t("reason.card_face_down") };
      if (index < obs.down[c]) return { reason: cap(t("reason.locked", { card: cardName(el.dataset.code) })) };
      const count = obs.columns[c].length - index;
      return { source: pile, count, els: pileElements(table, pile).slice(-count) };
    }
    if (pile === "w") {
      return index === obs.waste.length - 1 ? { source: "w", count: 1, els: [el] }
        : { reason: t("reason.not_top_waste") };
    }
    if (pile.startsWith("f") && obs.rules.has_waste) {
      if (!obs.rules.foundation_to_column) return { reason: t("reason.no_back") };
      return { source: pile, count: 1, els: [el] };
    }
    return { reason: t("reason.not_allowed") };
  }

  function pickup(el) {
    const got = lift(el);
    return got.reason ? null : got;
  }

  /** Put the lifted cards on pile `target` ("3", "f", "f2"): plays the move or says why not. */
  function putDown(info, target, anchor) {
    const tgt = target.startsWith("f") ? "f" : target;
    const m = findMove(S.body, info.source, info.count, tgt);
    if (m) return play(m.text);
    return refuse(explain(S.body, info.source, info.count, tgt), anchor);
  }

  async function dropAt(info, rect, x, y) {
    const tgt = bestTarget(targets(table, S.body.observation), rect, x, y);
    if (!tgt || tgt.target === info.source) return false;
    return putDown(info, tgt.target, { x, y });
  }

  /** A tap on the stock: a draw (or a deal), or why not; judged when its turn in the queue comes,
   *  so that taps in quick succession each draw. */
  function stockAction(anchor) {
    return playDecided((body) => (body.observation.legal.includes("d") ? "d"
      : { reason: explain(body, "d", 0, ""),
        anchor: table.querySelector('.pile[data-pile="d"] [tabindex]') }), anchor);
  }

  /** The card a tap on `el` means once the actions before it are done: the same card if it is
   *  still in its place, else the top card of the pile tapped (the card now under the finger). */
  function tappedCard(pile, index, code) {
    const els = pileElements(table, pile);
    const same = els.find((c) => Number(c.dataset.index) === index && (c.dataset.code || "") === code);
    return same || els[els.length - 1] || null;
  }

  /** What a tap on a table card does: its best move, or why it has none. */
  function tapMove(el) {
    const got = lift(el);
    if (got.reason) return got;
    const m = bestMove(S.body, got.source, got.count);
    if (m) return m.text;
    const code = got.els[0].dataset.code;
    return { reason: got.count > 1 ? t("reason.nowhere_run", { what: liftedWords(code, got.count) })
      : t("reason.nowhere", { card: liftedWords(code, 1) }) };
  }

  /** Every click or tap counts, however quickly it follows the last (a double click is two taps:
   *  on the stock, two draws; on a card, its move and then the move of the card left there). */
  function click(el) {
    if (!S.body) return;
    if (el.dataset.pile === "d") { stockAction(el); return; }
    if (!el.classList.contains("card")) return;
    if (el.dataset.pile.startsWith("f")) {
      if (S.body.observation.rules.has_waste) bubble(t("reason.drag_back"), el);
      return;
    }
    const pile = el.dataset.pile, index = Number(el.dataset.index), code = el.dataset.code || "";
    playDecided(() => {
      const now = tappedCard(pile, index, code);
      const got = now ? tapMove(now) : null;
      return got && got.reason ? { ...got, anchor: now } : got;
    }, el);
  }

  /** Enter or Space on a card or pile. */
  async function activate(el) {
    hideBubble();
    const pile = el.dataset.pile;
    if (!S.held) {
      if (pile === "d") { stockAction(el); return; }
      const got = lift(el);
      if (got.reason) { refuse(got.reason, el); return; }
      S.held = { source: got.source, count: got.count };
      markHeld();
      say(t("say.picked", { what: liftedWords(got.els[0].dataset.code, got.count) }));
      return;
    }
    if (pile === S.held.source) { cancelHeld(); return; }
    const ok = await putDown(S.held, pile === "d" ? "d" : pile, el);
    if (ok) {
      const els = table.querySelectorAll(`.pile[data-pile="${pile}"] [tabindex]`);
      if (els.length) focusEl(els[els.length - 1]);
    }
  }

  function cancelHeld() {
    if (!S.held) return;
    S.held = null;
    markHeld();
    say(t("say.put_back"));
  }

  function onKey(e) {
    const input = $("move-input");
    const inInput = e.target === input;
    if (!inInput && e.target.closest && e.target.closest("input, select, textarea, dialog")) return;
    const k = e.key.toLowerCase();
    const mod = e.ctrlKey || e.metaKey;
    if (mod && k === "z" && !e.shiftKey) { e.preventDefault(); undoRedo("undo"); return; }
    if (mod && (k === "y" || (k === "z" && e.shiftKey))) { e.preventDefault(); undoRedo("redo"); return; }
    if (mod || e.altKey) return;
    if (inInput) {
      if (input.value === "" && (k === "u" || k === "r")) {
        e.preventDefault();
        undoRedo(k === "u" ? "undo" : "redo");
      } else if (input.value === "" && k === "h") {   // h is no notation: the hint
        e.preventDefault();
        help.askHint();
      } else if (k === "escape") input.value = "";
      return;
    }
    if (k === "escape") {
      if (!S.held && ending.dismiss()) return;
      cancelHeld();
      hideBubble();
      return;
    }
    if (k === "u") undoRedo("undo");
    else if (k === "r") undoRedo("redo");
    else if (k === "n") dealing.open();
    else if (k === "h") help.askHint();
    else if (/^[0-9wfd>:]$/.test(k)) {
      e.preventDefault();
      openKeys(true);
      input.focus();
      input.value += k;
    }
  }

  function openKeys(open) {
    $("move-form").classList.toggle("open", open);
    $("btn-keys").setAttribute("aria-expanded", String(open));
  }

  function submitMove(e) {
    e.preventDefault();
    const input = $("move-input");
    const text = input.value.trim().toLowerCase().replace(/\s+/g, "");
    input.value = "";
    if (text) playTyped(text, input);
  }

  return { pickup, dropAt, click, activate, cancelHeld, onKey, openKeys, submitMove };
}
