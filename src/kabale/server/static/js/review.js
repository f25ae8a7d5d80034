// Looking back over a finished game (the post-mortem): the deal turned face up on the table,
// the game's moves listed with the one that lost the win marked, stepping through the game
// and through a winning line from just before that move, and "Replay from here", which deals
// the game again at the position shown as a new game played with help.

import { api } from "./api.js";
import { h } from "./dialogs.js";
import { bubble, say } from "./feedback.js";
import { number, t } from "./i18n.js";
import { familyOf } from "./moves.js";
import { moveWords } from "./names.js";

const $ = (id) => document.getElementById(id);

/** A move in words, from the face-up position `obs` it is played from ("The nine of hearts
 *  from column 5 to the ten of spades in column 6."); notation only while `obs` is unknown. */
function inWords(obs, text) {
  if (!obs || !text) return text || "";
  if (text === "d") return t(familyOf(obs.variant) === "klondike" ? "review.draw" : "review.deal");
  return moveWords({ observation: obs }, text);
}

/** The verdict, in sentences that never contradict one another: a deal the solver could not
 *  decide gets one sentence, which says the loss only as "if it could be won". */
export function summary(pm, moves, lostWords = null) {
  const n = pm.lost_at !== null ? number(pm.lost_at + 1) : null;
  const move = lostWords || (pm.lost_at !== null ? moves[pm.lost_at] : "");
  if (pm.winnable_at_start !== true && pm.winnable_at_start !== false) {
    return pm.lost_at !== null ? t("review.unknown_lost", { n, move }) : t("review.unknown");
  }
  const out = [t(pm.winnable_at_start ? "review.winnable" : "review.unwinnable")];
  if (pm.lost_at !== null) {
    out.push(t(pm.proved ? "review.lost_at" : "review.lost_at_unproved", { n, move }));
  } else if (pm.winnable_at_start && pm.line_before.length) out.push(t("review.still"));
  return out.join(" ");
}

export function createReview(ctx) {
  // at: the game's moves shown; line: the winning line's moves shown after `lineFrom`
  const R = { open: false, id: null, moves: [], pm: null, at: 0, line: 0, obs: null, seq: 0 };

  function lineFrom() { return R.pm.lost_at !== null ? R.pm.lost_at : R.moves.length; }

  /** Draw the position R.at (and R.line moves of the winning line) face up. */
  async function goTo(at, line = 0) {
    R.at = at;
    R.line = line;
    const seq = ++R.seq;
    const then = line ? R.pm.line_before.slice(0, line) : [];
    try {
      const got = await api.review(R.id, at, then);
      if (seq !== R.seq || !R.open) return;
      const before = R.obs;
      R.obs = got.observation;
      ctx.showReview(R.obs, before);
    } catch (err) {
      bubble(ctx.errorText(err), $("review-step"));
      return;
    }
    mark();
  }

  function mark() {
    for (const li of $("review-moves").children) {
      li.classList.toggle("here", !R.line && Number(li.dataset.after) === R.at);
    }
    const here = $("review-moves").querySelector(".here");
    if (here) here.scrollIntoView({ block: "nearest" });
    const lineList = $("review-line").children;
    for (const li of lineList) li.classList.toggle("here", Number(li.dataset.after) === R.line);
    const total = R.moves.length;
    const where = R.line
      ? t("review.line_step", { n: number(R.line), total: number(R.pm.line_before.length) })
      : (R.at === 0 ? t("review.start") : t("review.step", { n: number(R.at), total: number(total) }));
    const next = R.line ? R.pm.line_before[R.line] : R.moves[R.at];
    $("review-step").textContent = next
      ? `${where}. ${t("review.next", { move: inWords(R.obs, next) })}` : where;
    // The verdict names the move that lost in words once its position is on the table.
    if (!R.line && R.pm.lost_at !== null && R.at === R.pm.lost_at) {
      $("review-summary").textContent = summary(R.pm, R.moves, inWords(R.obs, R.moves[R.at]));
    }
    say($("review-step").textContent);
    $("review-replay").textContent = R.line ? t("btn.replay_line") : t("btn.replay");
  }

  function moveItem(text, i, lost) {
    const b = h("button", { type: "button", class: "move", text: `${i + 1}. ${text}` });
    b.addEventListener("click", () => goTo(i + 1));
    const li = h("li", { "data-after": String(i + 1) }, b);
    if (lost) {
      li.classList.add("lost");
      li.append(h("span", { class: "lost-mark", text: t("review.lost_mark") }));
    }
    return li;
  }

  function lineItem(text, i) {
    const b = h("button", { type: "button", class: "move", text: `${i + 1}. ${text}` });
    b.addEventListener("click", () => goTo(lineFrom(), i + 1));
    return h("li", { "data-after": String(i + 1) }, b);
  }

  function fill() {
    const { pm, moves } = R;
    $("review-summary").textContent = summary(pm, moves);
    $("review-moves").replaceChildren(...moves.map((m, i) => moveItem(m, i, i === pm.lost_at)));
    const line = pm.line_before;
    $("review-line-box").hidden = !line.length;
    $("review-line-title").textContent = pm.lost_at !== null
      ? t("review.line", { n: line.length, at: number(pm.lost_at + 1) })
      : t("review.line_still", { n: line.length });
    $("review-line").replaceChildren(...line.map(lineItem));
    $("review-show-line").hidden = !line.length;   // no button for a line there is not
  }

  /** Open the look back at the game on the table (it is over). */
  async function open() {
    const body = ctx.body();
    R.open = true;
    R.id = body.id;
    R.obs = null;
    document.body.classList.add("reviewing");
    document.body.style.setProperty("--bar-h", `${document.querySelector(".top-bar").offsetHeight}px`);
    $("review").hidden = false;
    $("review-summary").textContent = t("review.thinking");
    $("review-moves").replaceChildren();
    $("review-line-box").hidden = true;
    $("review-close").focus();
    try {
      const got = await api.postmortem(body.id);
      if (!R.open || R.id !== body.id) return;
      R.moves = got.moves;
      R.pm = got.postmortem;
    } catch (err) {
      $("review-summary").textContent = ctx.errorText(err);
      return;
    }
    fill();
    // Start just before the move that lost the win, where a replay starts; else at the end.
    await goTo(R.pm.lost_at !== null ? R.pm.lost_at : R.moves.length);
  }

  function close() {
    if (!R.open) return;
    R.open = false;
    R.seq += 1;
    $("review").hidden = true;
    document.body.classList.remove("reviewing");
    ctx.endReview();
  }

  function step(delta) {
    if (!R.pm) return;
    if (R.line) {
      const next = R.line + delta;
      if (next <= 0) goTo(lineFrom());
      else if (next <= R.pm.line_before.length) goTo(lineFrom(), next);
      return;
    }
    const next = R.at + delta;
    if (next >= 0 && next <= R.moves.length) goTo(next);
  }

  /** The winning line, step by step: its first move from where it starts. */
  function showLine() {
    if (R.pm && R.pm.line_before.length) goTo(lineFrom(), 1);
  }

  async function replay() {
    if (!R.pm) return;
    const at = R.line ? lineFrom() : R.at;
    try {
      const body = await api.replay(R.id, at);
      close();
      ctx.startReplay(body, at);
    } catch (err) {
      bubble(ctx.errorText(err), $("review-replay"));
    }
  }

  function wire() {
    $("review-close").addEventListener("click", close);
    $("review-back").addEventListener("click", () => step(-1));
    $("review-on").addEventListener("click", () => step(1));
    $("review-show-line").addEventListener("click", showLine);
    $("review-replay").addEventListener("click", replay);
    $("review").addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); close(); }
      if (e.key === "ArrowLeft") step(-1);
      if (e.key === "ArrowRight") step(1);
    });
  }

  return { open, close, wire, isOpen: () => R.open };
}
