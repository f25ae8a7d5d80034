// Help while playing, all of it from what the player has seen (the server's advisor): the
// hint (the button and H light the best move with its reason; H again the next best), the
// win-chance meter (a setting, off by default: it is a spoiler), asked after each move without
// holding the move up, and the demo, in which the bot plays the game on screen, move by move,
// until it is stopped.

import { api, ApiError } from "./api.js";
import { deadEnd } from "./deadend.js";
import { bubble, say, toast } from "./feedback.js";
import { percent, t } from "./i18n.js";
import { moveByText } from "./moves.js";
import { moveWords } from "./names.js";
import { highlightMove, pileElements } from "./table.js";

const $ = (id) => document.getElementById(id);
const RETRY_MS = 1500;   // the advisor was busy: ask the meter's chance again after this

function playing(body) {
  return body && body.status === "playing" && body.observation.outcome === "playing";
}

/** The element a hinted move lifts (for the bubble), else the hint button. */
function anchorOf(table, body, text) {
  const m = moveByText(body, text);
  if (!m) return $("btn-hint");
  if (m.source === "d") return table.querySelector('.pile[data-pile="d"] [tabindex]') || $("btn-hint");
  const els = pileElements(table, m.source);
  return els[els.length - Math.max(m.count, 1)] || $("btn-hint");
}

/** `ask()`, asked again (twice at most, after the server's Retry-After) while the advisor
 *  answers that it is busy or the player has too many questions out: a question the player
 *  asked is answered when a worker is free, not refused (`signal` stops the waiting). */
async function askAgain(ask, signal) {
  for (let tries = 0; ; tries++) {
    try {
      return await ask();
    } catch (err) {
      const busy = (err.status === 503 && (err.code === "busy" || err.code === "worker_lost"))
        || err.status === 429;
      if (!busy || tries >= 2) throw err;
      await new Promise((done) => setTimeout(done, 1000 * (err.retryAfter || 1)));
      if (signal.aborted) throw new ApiError(0, "aborted", "aborted");
    }
  }
}

export function createHelp(ctx) {
  const hint = { serial: -1, data: null, index: 0, clear: null, asking: false };
  const meter = { serial: -1, busy: false, timer: 0 };
  const demo = { on: false, timer: 0 };

  function clearHint() {
    if (hint.clear) hint.clear();
    hint.clear = null;
  }

  function hintText(body, move, chance, first) {
    const words = moveWords(body, move);
    const odds = chance > 0 ? ` ${t("hint.odds", { chance: percent(chance) })}` : "";
    // A draw or a deal says itself ("Hint: draw from the stock."), not "The stock. It draws
    // from the stock."
    if (first && move === "d") {
      const which = body.observation.rules.has_waste ? "hint.best_draw" : "hint.best_deal";
      return `${t(which)}${odds}`;
    }
    if (first) return `${t("hint.best", { move: words, reason: t(`hint.reason.${hint.data.reason_key}`) })}${odds}`;
    return `${t("hint.next", { n: hint.index + 1, move: words })}${odds}`;
  }

  function showHint(body) {
    clearHint();
    const h = hint.data;
    if (!h.move) {
      bubble(t(`hint.reason.${h.reason_key}`), $("btn-hint"), { kind: "tip", ms: 6000 });
      return;
    }
    const [move, chance] = hint.index === 0 ? [h.move, h.chance] : h.moves[hint.index];
    hint.clear = highlightMove(ctx.table, body, move);
    let text = hintText(body, move, chance, hint.index === 0);
    if (h.reason_key === "no_hope" && hint.index === 0) text = t("hint.reason.no_hope");
    // The bubble never covers the cards it speaks of: the lit move and its target.
    const avoid = [...ctx.table.querySelectorAll(".hint, .hint-target")]
      .map((el) => el.getBoundingClientRect());
    bubble(text, anchorOf(ctx.table, body, move), { kind: "tip", ms: 7000, avoid });
  }

  /** The hint button and H: the best move, then each next best in turn. */
  async function askHint() {
    const body = ctx.body();
    if (!playing(body)) { bubble(t("reason.game_over"), $("btn-hint")); return; }
    // A proved dead end (deadend.js) has no move worth lighting: said, not asked (no help).
    if (deadEnd(body.observation)) { bubble(t("hint.dead_end"), $("btn-hint"), { kind: "tip" }); return; }
    if (hint.asking) { cancelHint(body); return; }   // a second press stops the thinking
    const serial = ctx.serial();
    if (hint.serial === serial && hint.data) {
      if (hint.data.moves.length < 2) {
        bubble(t("hint.only"), $("btn-hint"), { kind: "tip" });
        return;
      }
      hint.index = (hint.index + 1) % hint.data.moves.length;
      showHint(body);
      return;
    }
    hint.asking = new AbortController();
    $("btn-hint").setAttribute("aria-busy", "true");
    $("btn-hint").title = t("hint.cancel");
    say(t("hint.thinking"));
    try {
      const got = await askAgain(() => api.hint(body.id, hint.asking.signal), hint.asking.signal);
      if (ctx.serial() !== serial) return;   // the game moved on while the advisor thought
      body.assisted = true;
      ctx.refreshHud();
      Object.assign(hint, { serial, data: got.hint, index: 0 });
      showHint(ctx.body());
    } catch (err) {
      if (err.code === "aborted" || err.code === "cancelled") say(t("hint.cancelled"));
      else bubble(ctx.errorText(err), $("btn-hint"));
    } finally {
      hint.asking = false;
      $("btn-hint").removeAttribute("aria-busy");
      $("btn-hint").title = t("btn.hint.title");
    }
  }

  /** Stop waiting for the hint being worked out, and tell the server to stop it too (its
   * worker is then free for someone else). */
  function cancelHint(body) {
    if (!hint.asking) return;
    hint.asking.abort();
    api.cancelHelp(body.id).catch(() => {});   // gone or finished: nothing left to stop
  }

  function drawMeter(chance) {
    const box = $("chance-box");
    const pct = (x) => `${Math.round(x * 1000) / 10}%`;
    $("chance-fill").style.width = pct(chance.value);
    $("chance-range").style.left = pct(chance.low);
    $("chance-range").style.width = pct(Math.max(chance.high - chance.low, 0.005));
    $("chance-value").textContent = percent(chance.value);
    const words = t("chance.title", { value: percent(chance.value), low: percent(chance.low),
      high: percent(chance.high), samples: chance.samples });
    box.title = words;
    const bar = $("chance-bar");
    bar.setAttribute("aria-valuenow", String(Math.round(chance.value * 100)));
    bar.setAttribute("aria-valuetext", words);
  }

  /** Ask the chance of the position on the table, one request at a time; a move made while
   *  one is out is answered by asking again once it is back. */
  async function updateMeter() {
    const box = $("chance-box");
    box.hidden = !ctx.settings.chance;
    clearTimeout(meter.timer);
    const body = ctx.body();
    if (!ctx.settings.chance || !body || meter.busy || meter.serial === ctx.serial()) return;
    const serial = ctx.serial();
    meter.busy = true;
    box.classList.add("stale");
    let retry = false;
    try {
      const got = await api.chance(body.id);
      if (serial === ctx.serial()) {
        meter.serial = serial;
        drawMeter(got.chance);
        box.classList.remove("stale");
      }
    } catch (err) {
      retry = err.status === 503 || err.status === 429;   // busy, or the player's 3 jobs
      box.title = ctx.errorText(err);
    } finally {
      meter.busy = false;
    }
    if (retry) meter.timer = setTimeout(updateMeter, RETRY_MS);
    else if (meter.serial !== ctx.serial()) updateMeter();
  }

  function demoButton() {
    const b = $("btn-demo");
    b.setAttribute("aria-pressed", String(demo.on));
    b.querySelector(".txt").textContent = t(demo.on ? "btn.demo_stop" : "btn.demo");
    $("demo-bar").hidden = !demo.on;
  }

  function stopDemo(words = null) {
    const was = demo.on;
    demo.on = false;
    clearTimeout(demo.timer);
    demoButton();
    if (was) say(words || t("demo.stopped"));
  }

  /** One move of the bot, in the queue of actions like any move; then the next, after the
   *  move's animation and a pause to follow it. */
  async function demoStep() {
    if (!demo.on) return;
    if (!playing(ctx.body())) { stopDemo(); return; }
    const going = await ctx.enqueue(async () => {
      if (!demo.on || !playing(ctx.body())) return false;
      const before = ctx.body();
      try {
        const got = await api.bot(before.id);
        if (!got.bot.move) {
          stopDemo(t("demo.gives_up"));
          toast(t("demo.gives_up"));
          return false;
        }
        ctx.showMove(before, got);
        return true;
      } catch (err) {
        stopDemo();
        bubble(ctx.errorText(err), $("btn-demo"));
        return false;
      }
    });
    if (going && demo.on) demo.timer = setTimeout(demoStep, ctx.animMs() + 450);
  }

  function toggleDemo() {
    if (demo.on) { stopDemo(); return; }
    if (!playing(ctx.body())) { bubble(t("reason.game_over"), $("btn-demo")); return; }
    demo.on = true;
    demoButton();
    say(t("demo.playing"));
    demoStep();
  }

  return {
    askHint, updateMeter, toggleDemo, stopDemo, clearHint,
    demoRunning: () => demo.on,
    /** Words and labels that depend on the language. */
    relabel: () => demoButton(),
  };
}
