// Looking back over a finished game (the post-mortem): the deal turned face up on the table,
// the game's moves listed with the one that lost the win marked, stepping through the game
// and through a winning line from just before that move, and "Replay from here", which deals
// the game again at the position shown as a new game played with help. The grades of the
// moves (kabale.advisor.review) are worked out in the background meanwhile: a strip of the
// moves coloured by grade, the accuracy, a step to any move, and for a move that was not the
// best, the better move shown on the table.

import { api } from "./api.js";
import { h } from "./dialogs.js";
import { bubble, say } from "./feedback.js";
import { number, percent, t } from "./i18n.js";
import { factWords, moveWords } from "./names.js";

const $ = (id) => document.getElementById(id);

/** A move in words, from the face-up position `obs` it is played from ("The nine of hearts
 *  from column 5 to the ten of spades in column 6."); notation only while `obs` is unknown. */
function inWords(obs, text) {
  if (!obs || !text) return text || "";
  if (text === "d") return t(obs.rules.has_waste ? "review.draw" : "review.deal");
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
  // grades: the review once worked out; picked: the decision shown; better: its better move on
  // facts, lineFacts: what each move of the game and of the line moved (words, not notation)
  const R = { open: false, id: null, moves: [], pm: null, at: 0, line: 0, obs: null, seq: 0,
    grades: null, picked: null, better: false, facts: [], lineFacts: [] };

  /** Move i of the game (or of the winning line) in words; its notation only if the server
   *  sent no facts for it. */
  function said(i, line = false, capital = true) {
    const f = (line ? R.lineFacts : R.facts)[i];
    return f ? factWords(f, capital) : (line ? R.pm.line_before : R.moves)[i];
  }

  function lineFrom() { return R.pm.lost_at !== null ? R.pm.lost_at : R.moves.length; }

  /** Draw the position R.at (and R.line moves of the winning line) face up. */
  async function goTo(at, line = 0, better = false) {
    R.at = at;
    R.line = line;
    R.better = better;
    if (!better && R.picked !== null && R.picked.index !== at) R.picked = null;
    const seq = ++R.seq;
    const then = line ? R.pm.line_before.slice(0, line) : (better ? [R.picked.best] : []);
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
      : R.better ? t("grades.showing_better", { n: number(R.at + 1), best: bestWords(R.picked) })
      : (R.at === 0 ? t("review.start") : t("review.step", { n: number(R.at), total: number(total) }));
    const next = R.line ? R.pm.line_before[R.line] : R.moves[R.at];
    // the next move in words: what it moves (the facts), else read off the table
    const facts = R.line ? R.lineFacts[R.line] : R.facts[R.at];
    const nextWords = facts ? factWords(facts, true) : inWords(R.obs, next);
    $("review-step").textContent = next
      ? `${where}. ${t("review.next", { move: nextWords })}` : where;
    say($("review-step").textContent);
    $("review-replay").textContent = R.line ? t("btn.replay_line") : t("btn.replay");
    markGrade();
  }

  // ---------------------------------------------------------------- the grades
  function gradeName(grade) { return t(`grades.name.${grade}`); }

  function signed(share) { return (share > 0 ? "+" : "") + percent(share); }

  /** A decision's move and its better move, in words. */
  function moveOf(d) { return d.move_facts ? factWords(d.move_facts) : d.move; }
  function bestWords(d) { return d.best_facts ? factWords(d.best_facts) : d.best; }

  /** The strip's cell of the decision shown, and the words about it. */
  function markGrade() {
    const strip = $("grades-strip");
    for (const li of strip.children) {
      li.classList.toggle("here", R.picked !== null && Number(li.dataset.index) === R.picked.index);
    }
    const note = $("grades-note");
    const d = R.picked;
    $("grades-better").hidden = !d || d.best === d.move;
    if (!d) { note.hidden = true; return; }
    const words = [t("grades.move", { n: number(d.index + 1), move: moveOf(d), grade: gradeName(d.grade) })];
    if (d.best !== d.move && d.best_value !== null) {
      words.push(t("grades.better", { best: bestWords(d), value: percent(d.best_value),
        chosen: percent(d.chosen_value) }));
    }
    if (d.true_best) {
      words.push(t("grades.truth", { best: bestWords(d), move: moveOf(d),
        best_fate: t(`grades.fate.${d.true_best}`), chosen_fate: t(`grades.fate.${d.true_chosen}`) }));
    }
    const luck = R.grades.luck.find((entry) => entry.index === d.index);
    if (luck) words.push(t("grades.luck", { luck: signed(luck.luck) }));
    note.textContent = words.join(" ");
    note.hidden = false;
  }

  function pick(d) {
    R.picked = d;
    goTo(d.index);  // the position the move was chosen in
  }

  function gradeCell(d) {
    const label = t("grades.move", { n: number(d.index + 1), move: moveOf(d), grade: gradeName(d.grade) });
    const b = h("button", { type: "button", class: `g-${d.grade}`, title: label, "aria-label": label });
    b.addEventListener("click", () => pick(d));
    return h("li", { "data-index": String(d.index) }, b);
  }

  function showGrades(review) {
    R.grades = review;
    const c = review.counts;
    $("grades-summary").textContent = [
      t("grades.summary", { accuracy: number(Math.round(review.accuracy * 10) / 10),
        luck: signed(review.luck_total), given: percent(review.given_away_total) }),
      t("grades.counts", { best: number(c.best), good: number(c.good), inaccuracy: number(c.inaccuracy),
        mistake: number(c.mistake), blunder: number(c.blunder), forced: number(c.forced) }),
    ].join(" ");
    $("grades-strip").replaceChildren(...review.decisions.map(gradeCell));
    for (const li of $("review-moves").children) {
      const d = review.decisions[Number(li.dataset.after) - 1];
      if (d) li.classList.add(`g-${d.grade}`);
    }
    markGrade();
  }

  /** Start the review of the game (or find it started) and poll it until it is done. */
  async function grades(id) {
    $("grades-strip").replaceChildren();
    $("grades-note").hidden = true;
    $("grades-better").hidden = true;
    let got;
    try {
      got = await api.analysis(id);
      while (R.open && R.id === id && got.state === "running") {
        $("grades-summary").textContent = t("grades.thinking", { done: number(got.done), total: number(got.total) });
        await new Promise((done) => { setTimeout(done, 500); });
        got = await api.analysisState(id);
      }
    } catch (err) {
      if (R.open && R.id === id) $("grades-summary").textContent = ctx.errorText(err);
      return;
    }
    if (!R.open || R.id !== id) return;
    if (got.state === "done") showGrades(got.review);
    // a review stopped or refused by the help engine says why in the player's language
    else $("grades-summary").textContent = t("grades.failed",
      { error: got.code ? ctx.errorText({ code: got.code }) : (got.error || "") });
  }

  function moveItem(text, i, lost) {
    const b = h("button", { type: "button", class: "move", text: `${number(i + 1)}. ${said(i)}` });
    b.addEventListener("click", () => goTo(i + 1));
    const li = h("li", { "data-after": String(i + 1) }, b);
    if (lost) {
      li.classList.add("lost");
      li.append(h("span", { class: "lost-mark", text: t("review.lost_mark") }));
    }
    return li;
  }

  function lineItem(text, i) {
    const b = h("button", { type: "button", class: "move", text: `${number(i + 1)}. ${said(i, true)}` });
    b.addEventListener("click", () => goTo(lineFrom(), i + 1));
    return h("li", { "data-after": String(i + 1) }, b);
  }

  function fill() {
    const { pm, moves } = R;
    $("review-summary").textContent = summary(pm, moves,
      pm.lost_at !== null && R.facts[pm.lost_at] ? said(pm.lost_at) : null);
    $("review-moves").replaceChildren(...moves.map((m, i) => moveItem(m, i, i === pm.lost_at)));
    const line = pm.line_before;
    $("review-line-box").hidden = !line.length;
    const title = pm.lost_at !== null
      ? t("review.line", { n: line.length, at: number(pm.lost_at + 1) })
      : t("review.line_still", { n: line.length });
    // a line stripped of the search's detours says how long the search's own line was
    const found = pm.line_found > line.length
      ? ` ${t("review.line_found", { found: number(pm.line_found) })}` : "";
    $("review-line-title").textContent = title + found;
    $("review-line").replaceChildren(...line.map(lineItem));
    $("review-show-line").hidden = !line.length;   // no button for a line there is not
  }

  /** Open the look back at the game on the table (it is over). */
  async function open() {
    const body = ctx.body();
    R.open = true;
    R.id = body.id;
    R.obs = null;
    R.grades = null;
    R.picked = null;
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
      R.facts = got.facts || [];
      R.lineFacts = got.line_facts || [];
    } catch (err) {
      $("review-summary").textContent = ctx.errorText(err);
      return;
    }
    fill();
    grades(body.id);  // in the background: the table can be looked at meanwhile
    // Start just before the move that lost the win, where a replay starts; else at the end.
    await goTo(R.pm.lost_at !== null ? R.pm.lost_at : R.moves.length);
  }

  function close() {
    if (!R.open) return;
    R.open = false;
    R.seq += 1;
    // a review still being worked out is of no use now: its CPU goes to someone else
    // (docs/api.md, "Help as jobs"; the server would stop it after a minute unasked anyway)
    if (!R.grades) api.cancelHelp(R.id).catch(() => {});
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
    $("grades-better").addEventListener("click", () => { if (R.picked) goTo(R.picked.index, 0, true); });
    $("review").addEventListener("keydown", (e) => {
      if (e.key === "Escape") { e.preventDefault(); close(); }
      if (e.key === "ArrowLeft") step(-1);
      if (e.key === "ArrowRight") step(1);
    });
  }

  return { open, close, wire, isOpen: () => R.open };
}
