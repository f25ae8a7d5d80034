// The end of a game: the banner (a win with its figures and its rank among the player's
// wins, and the celebration; a loss with the way to look back over it), and Klondike's
// auto-finish once every card is face up.

import { celebrate } from "./celebrate.js";
import { deadEnd } from "./deadend.js";
import { clock } from "./dialogs.js";
import { say } from "./feedback.js";
import { money, number, ordinal, t } from "./i18n.js";
import { legalMoves } from "./moves.js";
import { variantName } from "./names.js";
import { isVegas } from "./stats.js";

const $ = (id) => document.getElementById(id);

function banner(text, buttons) {
  $("banner-text").textContent = text;
  const row = $("banner-buttons");
  row.replaceChildren();
  for (const [label, fn, id] of buttons) {
    const b = document.createElement("button");
    b.textContent = label;
    if (id) b.id = id;
    b.addEventListener("click", fn);
    row.append(b);
  }
  $("banner").hidden = false;
}

function hideBanner() { $("banner").hidden = true; }

/** "Of your 12 wins at Klondike: the best time, the 3rd best score, the 2nd fewest moves." */
export function rankWords(rank, variant) {
  if (!rank) return "";
  if (rank.wins <= 1) return t("rank.first", { name: variantName(variant) });
  const part = (what, place) => (place === 1 ? t(`rank.${what}.first`)
    : t(`rank.${what}.nth`, { nth: ordinal(place) }));
  const list = [part("time", rank.time), part("score", rank.score), part("moves", rank.moves)];
  return t("rank.of", { wins: number(rank.wins), name: variantName(variant), list: list.join(", ") });
}

export function createEnding(ctx) {
  const st = { auto: null, autoOff: false, party: null, partyFor: null, told: null,
    deadOff: null };

  /** The end of a game is told once (per game and kind of end): announced after the move that
   *  ended it (the move is said first) and the focus put on the banner's first button, so that
   *  a keyboard or screen-reader player is at the banner, not twelve Tabs away from it. */
  function tell(body, kind) {
    const key = `${body.id}:${kind}`;
    if (st.told === key) return;
    st.told = key;
    setTimeout(() => {
      const last = $("echo").dataset.last || "";
      const text = $("banner-text").textContent;
      say(last && last !== text ? `${last} ${text}` : text);
      const first = $("banner-buttons").querySelector("button");
      if (first && !$("banner").hidden) first.focus();
    }, 0);
  }

  /** Esc on a finished game's banner: the banner goes, the focus to New game. */
  function dismiss() {
    const body = ctx.body();
    if ($("banner").hidden || !body || body.status === "playing") return false;
    stopParty();
    hideBanner();
    $("btn-new").focus();
    return true;
  }

  function stopAuto(byUser) {
    clearTimeout(st.auto);
    st.auto = null;
    if (byUser) st.autoOff = true;
  }

  function stopParty() {
    if (st.party) st.party();
    st.party = null;
  }

  /** Klondike: once every card is face up and stock and waste are empty, play the rest. */
  function autoFinish() {
    const body = ctx.body(), obs = body.observation;
    if (obs.rules.family !== "klondike" || body.status !== "playing") return false;
    // The demo plays the last moves itself: two players of one game would each send a move
    // the other has already made.
    if (ctx.demoRunning()) return false;
    if (obs.stock || obs.waste.length || obs.down.some((d) => d > 0)) return false;
    const next = legalMoves(body).find((m) => m.target.startsWith("f"));
    if (!next) return false;
    if (st.autoOff) {
      banner(t("banner.face_up"), [[t("btn.finish"), () => { st.autoOff = false; checkEnd(); }]]);
      return true;
    }
    banner(t("banner.finishing"), [[t("btn.stop"), () => { stopAuto(true); checkEnd(); }]]);
    // The move is chosen when its turn in the queue comes, from the position then on the table.
    const nextMove = (b) => (b.status === "playing" && !ctx.demoRunning()
      ? (legalMoves(b).find((m) => m.target.startsWith("f")) || {}).text || null : null);
    st.auto = setTimeout(() => { if (st.auto) ctx.playDecided(nextMove, null, true); },
      Math.max(10, ctx.animMs()));
    return true;
  }

  function won(body) {
    const obs = body.observation;
    const time = clock(body.elapsed);
    const figures = isVegas(obs.variant)
      ? t("banner.won_vegas", { money: money(obs.score), moves: obs.moves_made, time })
      : t("banner.won", { score: obs.score, moves: obs.moves_made, time });
    const help = body.assisted ? ` ${t("banner.with_help")}` : "";
    banner(`${figures}${help} ${rankWords(body.rank, obs.variant)}`.trim(), [
      [t("btn.new"), () => { stopParty(); ctx.newGame({ variant: obs.variant }); }],
      [t("btn.again"), () => { stopParty(); ctx.playAgain(body); }, "btn-again"],
      [t("btn.stats"), () => { stopParty(); ctx.openStats(); }]]);
    tell(body, "won");
    if (st.partyFor !== body.id) {
      st.partyFor = body.id;
      stopParty();
      st.party = celebrate(ctx.table, obs, { still: ctx.stillMotion() });
    }
  }

  /** Show what the end of the game (or its nearing end) calls for. */
  function checkEnd() {
    const body = ctx.body(), obs = body.observation;
    const again = [t("btn.new"), () => ctx.newGame({ variant: obs.variant })];
    const look = [t("btn.look_back"), () => ctx.lookBack(), "btn-look-back"];
    if (obs.outcome === "won") {
      stopAuto(false);
      won(body);
      ctx.sound("win");
      ctx.refreshBalance();
      return;
    }
    stopParty();
    if (body.status === "lost") {
      banner(t("banner.given_up"), [look, again,
        [t("btn.again"), () => ctx.playAgain(body), "btn-again"]]);
      tell(body, "given_up");
    } else if (obs.outcome === "lost") {
      banner(t("banner.lost"), [[t("btn.undo"), () => ctx.undoRedo("undo")], look, again]);
      tell(body, "lost");
    } else if (!autoFinish() && !offerEnd(body)) hideBanner();
  }

  /** Spider with no move left that could ever turn a card up or complete a run (deadend.js):
   *  say so and offer to end the game as lost, once per game unless the player keeps on. */
  function offerEnd(body) {
    if (st.deadOff === body.id || !deadEnd(body.observation)) return false;
    banner(t("banner.dead_end"), [
      [t("btn.end_game"), () => ctx.endGame(), "btn-end-game"],
      [t("btn.keep"), () => { st.deadOff = body.id; hideBanner(); }]]);
    tell(body, "dead_end");
    return true;
  }

  return { checkEnd, stopAuto, hideBanner, stopParty, dismiss,
    resetAuto: () => { st.autoOff = false; } };
}
