// The page: one game at a time, drawn only from the server's observations. Every action goes
// through a queue so moves are applied in order, one round trip each.

import { api } from "./api.js";
import { safeMove } from "./automove.js";
import { coachAgrees } from "./coach.js";
import { ask } from "./dialogs.js";
import { enableDrag } from "./drag.js";
import { createEnding } from "./ending.js";
import { bubble, hideBubble, say, toast } from "./feedback.js";
import { createHelp } from "./help.js";
import { dealWords, hud, tick } from "./hud.js";
import { language, loadLanguage, pickLanguage, setLanguage, t } from "./i18n.js";
import { createInput } from "./input.js";
import { enableKeyboard } from "./keyboard.js";
import { announceMove, familyName, variantName } from "./names.js";
import { createNewGame } from "./newgame.js";
import { createReview } from "./review.js";
import { renderRules, rulesTabs, rulesUrl } from "./rules.js";
import { animMs, applySettings, loadSettings, saveSettings, stillMotion } from "./settings.js";
import { moveSounds, sound } from "./sound.js";
import { showStats, vegasBalance } from "./stats.js";
import { highlightMove, movedFrom, pileElements, render } from "./table.js";

const $ = (id) => document.getElementById(id);
const table = $("table");
// serial: counts the positions shown (a hint or a chance is for one); review: the face-up
// observation the look back at a finished game shows, drawn instead of the game's own
const S = { body: null, queue: Promise.resolve(), serial: 0, review: null,
  timerAt: 0, held: null, balance: 0 };
const settings = loadSettings();

/** Run `fn` after every earlier action; resolves to its result. */
function enqueue(fn) {
  const p = S.queue.then(fn);
  S.queue = p.catch(() => {});
  return p;
}

/** Words for a failed request. The server's own one-line reason is for developers (it goes to
 *  the console): a player reads only the translated words. */
function errorText(err) {
  if (err.status === 0) return t("reason.offline");
  if (err.code) return t(`reason.${err.code}`);
  console.warn(`kabale: the server answered ${err.status}: ${err.message}`);
  return t(err.status >= 500 ? "reason.server_fault" : "reason.refused");
}

/** A move, undo or redo the server turned down although the table showed it possible: the
 *  game on the server is not the one on the table (another tab played on, or the game ended).
 *  The table is brought up to date and the player told so in words; a game that has ended
 *  says so by its banner alone. */
async function outOfStep(err, anchor) {
  if (err.status === 0 || err.code || err.status >= 500 || !S.body) {
    bubble(errorText(err), anchor);
    return;
  }
  console.warn(`kabale: the server answered ${err.status}: ${err.message}`);
  let fresh = null;
  try { fresh = await api.get(S.body.id); } catch { /* keep the table as it is */ }
  if (fresh) {
    S.held = null;
    show(fresh, { ms: 0 });
    if (fresh.status !== "playing" || fresh.observation.outcome !== "playing") return;
  }
  bubble(t("reason.out_of_step"), anchor);
}

// ---------------------------------------------------------------- drawing

function draw(opts = {}) {
  render(table, S.review || S.body.observation, { ...opts, large: settings.large,
    leftHanded: settings.leftHanded });
  markHeld();
}

function show(body, { ms = null, prefer = null, deal = false } = {}) {
  const prev = S.body;
  S.body = body;
  S.serial += 1;
  if ($("bubble").classList.contains("tip")) hideBubble();   // a hint is for one position
  S.timerAt = Date.now();
  const same = prev && prev.id === body.id;
  refreshHud();  // first: the bar's height decides the table's
  draw({ ms: ms ?? (same ? animMs(settings) : 0), prefer, deal });
  remember();
  ending.checkEnd();
  help.updateMeter();   // not awaited: the meter never holds a move up
}

/** Show the answer to a move played from `before` (by the player or the demo's bot). */
function showMove(before, body) {
  S.held = null;
  show(body, { prefer: movedFrom(body.move) });
  say(announceMove(before, body.observation, body.move));
  moveSounds(before.observation, body.observation, body.move, settings.sound);
}

function refreshHud() { hud(S.body, settings, S.balance, S.timerAt); }

function remember() {
  const { id, observation: obs } = S.body;
  const deal = obs.deal_id ? `deal=${encodeURIComponent(obs.deal_id)}&` : "";
  const url = `?${deal}game=${encodeURIComponent(id)}`;
  if (location.search !== url || location.hash) history.replaceState(null, "", url);
  localStorage.setItem("kabale.game", id);
  localStorage.setItem("kabale.variant", obs.variant);
}

async function refreshBalance() {
  try { S.balance = vegasBalance(await api.stats()); } catch { S.balance = 0; }
  if (S.body) refreshHud();
}

function markHeld() {
  for (const el of table.querySelectorAll(".held")) {
    el.classList.remove("held");
    el.removeAttribute("aria-pressed");
  }
  if (!S.held) return;
  pileElements(table, S.held.source).slice(-S.held.count).forEach((el) => {
    el.classList.add("held");
    if (el.hasAttribute("role")) el.setAttribute("aria-pressed", "true");
  });
}

// ---------------------------------------------------------------- actions

/** Play a legal move (text from the legal list); a refused move is never sent to be played. A
 *  move of the player's stops the demo; `auto` (the auto-finish) does not. */
function play(text, auto = false) {
  return playDecided(() => text, null, auto);
}

/** Queue a move decided only when its turn comes, against the position every earlier action
 *  left (so quick taps each count, and none is judged on a table about to change):
 *  `decide(body)` gives the move's text, {reason} to refuse in words, or null for nothing. */
function playDecided(decide, anchor = null, auto = false) {
  if (!auto) help.stopDemo();
  return enqueue(async () => {
    if (!S.body || S.review) return false;
    const got = decide(S.body);
    if (!got) return false;
    // a refusal points at the card as it is now drawn (`got.anchor`), else at the one tapped
    const where = got.anchor || (anchor && anchor.isConnected ? anchor : null);
    if (got.reason) return refuse(got.reason, where);
    const before = S.body;
    if (!auto && settings.coach && !(await coachAgrees(before, got))) return false;
    try {
      showMove(before, await api.move(before.id, got));
      // The player's move (or a safe card's own) may free a safe card: it goes home next.
      if ((!auto || auto === "safe") && settings.autoMove) playDecided(safeMove, null, "safe");
      return true;
    } catch (err) {
      await outOfStep(err, where);
      return false;
    }
  });
}

/** Say why a move is refused, at `anchor`: `reason` is words, or the promise of them (the
 *  server asked why: reasons.js). Resolves to false, the move not made. */
async function refuse(reason, anchor) {
  const words = await reason;
  // (an element redrawn meanwhile is gone: the bubble goes to the middle then)
  bubble(words, anchor && anchor.nodeType && !anchor.isConnected ? null : anchor);
  sound("refuse", settings.sound);
  return false;
}

function undoRedo(which) {
  return enqueue(async () => {
    if (!S.body || S.review) return;
    ending.stopAuto(true);
    help.stopDemo();
    const before = S.body;
    try {
      const body = await api[which](before.id);
      S.held = null;
      show(body, { prefer: movedFrom(body.move, which === "undo") });
      say(which === "undo"
        ? t("say.undo", { what: announceMove(body, before.observation, body.move) })
        : t("say.redo", { what: announceMove(before, body.observation, body.move) }));
    } catch (err) {
      if (err.status === 409) return;
      await outOfStep(err);
    }
  });
}

function newGame(spec) {
  help.stopDemo();
  review.close();
  return enqueue(async () => {
    const cur = S.body;
    // A chosen deal is looked for while the player waits (four-suit Spider: a second or
    // more): said once it takes longer than a blink.
    const chosen = spec.winnable || spec.grade;
    const looking = chosen ? setTimeout(() => toast(t("new.looking")), 600) : 0;
    try {
      const body = await newDeal(spec);
      // Only once the new deal is there does the game in progress count as given up (a
      // winnable or graded deal may not turn up in time).
      if (cur && cur.status === "playing" && cur.observation.moves_made > 0
        && cur.observation.outcome !== "won") {
        try { await api.resign(cur.id); } catch { /* already over: nothing to count */ }
      }
      ending.resetAuto();
      ending.stopAuto(false);
      ending.stopParty();
      S.held = null;
      show(body, { ms: animMs(settings), deal: true });
      sound("shuffle", settings.sound);
      say(t("say.new", { name: variantName(body.observation.variant) }));
      refreshBalance();
    } catch (err) {
      if (spec.deal_id) toast(t("reason.bad_deal", { deal: spec.deal_id }));
      else bubble(errorText(err), $("btn-new"));
      if (!S.body) show(await api.newGame({ variant: "klondike" }));
    } finally {
      clearTimeout(looking);
      if (chosen) $("toast").hidden = true;
    }
  });
}

/** POST /api/games, asked again (up to three times, after the server's Retry-After) while
 *  the server answers 503 busy: the search for a chosen deal waits for a free worker. */
async function newDeal(spec) {
  for (let tries = 0; ; tries++) {
    try {
      return await api.newGame(spec);
    } catch (err) {
      if (err.status !== 503 || err.code !== "busy" || tries >= 3) throw err;
      await new Promise((done) => setTimeout(done, 1000 * (err.retryAfter || 2)));
    }
  }
}

// ---------------------------------------------------------------- giving up, looking back

async function resign() {
  const body = S.body;
  if (!body || body.status !== "playing" || body.observation.outcome !== "playing") {
    bubble(t("reason.game_over"), $("btn-resign"));
    return;
  }
  $("dlg-new").close();
  const yes = await ask(t("confirm.resign"), [[t("btn.resign"), true], [t("btn.cancel"), false]]);
  if (!yes) return;
  help.stopDemo();
  enqueue(async () => {
    try { show(await api.resign(S.body.id), { ms: 0 }); } catch (err) { bubble(errorText(err)); }
  });
}

/** Look back at the game on the table. A lost position that can still be undone is not over:
 *  looking back turns every card face up, so the game is given up first (the server refuses to
 *  show the cards of a game that can still change). */
async function lookBack() {
  const body = S.body;
  if (body && body.status === "playing") {
    const yes = await ask(t("confirm.look_back"), [[t("btn.look_back"), true], [t("btn.cancel"), false]]);
    if (!yes) return;
    help.stopDemo();
    const over = await enqueue(async () => {
      try {
        show(await api.resign(body.id), { ms: 0 });
        return true;
      } catch (err) {
        bubble(errorText(err));
        return false;
      }
    });
    if (!over) return;
  }
  review.open();
}

function showReview(obs, before) {
  S.review = obs;
  S.held = null;
  draw({ ms: before ? animMs(settings) : 0 });
}

function endReview() {
  S.review = null;
  if (S.body) draw({ ms: 0 });
}

/** The finished game's deal dealt again from its start (the server's replay from move 0: a new
 *  game, counted as played with help, since every card of the deal has been seen). */
function playAgain(over) {
  help.stopDemo();
  review.close();
  return enqueue(async () => {
    try {
      const body = await api.replay(over.id, 0);
      ending.stopParty();
      S.held = null;
      show(body, { ms: animMs(settings), deal: true });
      sound("shuffle", settings.sound);
      say(t("say.new", { name: variantName(body.observation.variant) }));
      (table.querySelector("[tabindex='0']") || $("btn-new")).focus();   // off the gone banner
    } catch (err) {
      bubble(errorText(err), $("btn-new"));
    }
  });
}

function startReplay(body, at) {
  ending.stopParty();
  show(body, { ms: 0 });
  toast(t("review.replaying", { n: at }));
}

// ---------------------------------------------------------------- dialogs

async function openStats() {
  try {
    await showStats($("stats-box"), S.body ? S.body.observation.variant : null, refreshBalance);
  } catch (err) {
    bubble(errorText(err), $("btn-stats"));   // e.g. a damaged database: the server says why
    return;
  }
  $("dlg-stats").showModal();
}

function openRules(family = S.body ? S.body.observation.rules.family : "klondike") {
  $("rules-title").textContent = `${t("rules.title")}: ${familyName(family)}`;
  rulesTabs($("rules-nav"), family, openRules);
  renderRules($("rules-box"), family);
  $("rules-link").href = rulesUrl(family, language());
  if (!$("dlg-rules").open) $("dlg-rules").showModal();
}

const SETTING_INPUTS = { lang: "set-lang", back: "set-back", felt: "set-felt", speed: "set-speed",
  leftHanded: "set-left", four: "set-four", large: "set-large", sound: "set-sound", timer: "set-timer",
  chance: "set-chance", coach: "set-coach", autoMove: "set-auto" };

function openSettings() {
  for (const [key, id] of Object.entries(SETTING_INPUTS)) {
    const input = $(id);
    if (input.type === "checkbox") input.checked = settings[key]; else input.value = settings[key];
  }
  $("dlg-settings").showModal();
}

function saveFromDialog() {
  for (const [key, id] of Object.entries(SETTING_INPUTS)) {
    const input = $(id);
    settings[key] = input.type === "checkbox" ? input.checked : input.value;
  }
  saveSettings(settings);
  applySettings(settings);
  const lang = pickLanguage(settings.lang);
  const redraw = () => { if (S.body) { refreshHud(); draw(); help.updateMeter(); } };
  if (lang !== language()) useLanguage(lang).then(redraw); else redraw();
}

async function copyLink() {
  let obs = S.body.observation;
  if (!obs.deal_id) {
    const yes = await ask(t("confirm.reveal"), [[t("btn.copy"), true], [t("btn.cancel"), false]]);
    if (!yes) return;
    try {
      const got = await api.reveal(S.body.id);
      if (got.observation) show(got, { ms: 0 });
      obs = S.body.observation;
    } catch (err) {
      bubble(errorText(err), $("btn-copy"));
      return;
    }
  }
  const link = `${location.origin}/?deal=${encodeURIComponent(obs.deal_id)}`;
  try {
    await navigator.clipboard.writeText(link);
    toast(t("say.copied", { link }));
  } catch {
    toast(t("say.link", { link }));
  }
}

// ---------------------------------------------------------------- the helpers' view of the page

const ctx = {
  table, settings, enqueue, show, showMove, play, playDecided, newGame, undoRedo, openStats, refreshHud,
  refreshBalance, showReview, endReview, startReplay, errorText,
  body: () => S.body,
  serial: () => S.serial,
  animMs: () => animMs(settings),
  stillMotion: () => stillMotion(settings),
  sound: (name) => sound(name, settings.sound),
  lookBack: () => lookBack(),
  playAgain: (body) => playAgain(body),
  endGame: () => enqueue(async () => {   // the dead-end banner's "End the game": a loss
    try { show(await api.resign(S.body.id), { ms: 0 }); } catch (err) { bubble(errorText(err)); }
  }),
  demoRunning: () => help.demoRunning(),
};
const help = createHelp(ctx);
const ending = createEnding(ctx);
const review = createReview(ctx);
const dealing = createNewGame(ctx);
const input = createInput({ S, table, play, playDecided, refuse, undoRedo, markHeld, help, ending,
  dealing });

// ---------------------------------------------------------------- start

/** The deal a link asks for: ?deal=spider:suits=2%2342, or typed with a bare # (which the
 *  browser takes for the fragment: ?deal=spider:suits=2#42). */
function linkedDeal(q) {
  const deal = q.get("deal");
  if (!deal) return null;
  if (!deal.includes("#") && /^#=?[\w]+$/.test(location.hash)) return deal + location.hash;
  return deal;
}

async function resumeOrAsk(deal) {
  const saved = localStorage.getItem("kabale.game");
  let cur = null;
  if (saved) { try { cur = await api.get(saved); } catch { cur = null; } }
  const running = cur && cur.status === "playing" && cur.observation.outcome === "playing";
  if (running && cur.observation.deal_id === deal) return show(cur, { ms: 0 });
  if (!running || cur.observation.moves_made === 0) return newGame({ deal_id: deal });
  show(cur, { ms: 0 });
  const go = await ask(t("confirm.linked", { name: variantName(cur.observation.variant),
    n: cur.observation.moves_made }), [[t("btn.start_linked"), true], [t("btn.keep"), false]]);
  if (go) await newGame({ deal_id: deal });
  else remember();
}

function wire() {
  $("btn-new").addEventListener("click", () => dealing.open());
  $("btn-undo").addEventListener("click", () => undoRedo("undo"));
  $("btn-redo").addEventListener("click", () => undoRedo("redo"));
  $("btn-stats").addEventListener("click", openStats);
  $("btn-rules").addEventListener("click", () => openRules());
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-copy").addEventListener("click", copyLink);
  $("btn-hint").addEventListener("click", () => help.askHint());
  $("btn-demo").addEventListener("click", () => help.toggleDemo());
  $("demo-stop").addEventListener("click", () => help.stopDemo());
  $("btn-resign").addEventListener("click", resign);
  $("deal-tags").addEventListener("click", () => bubble(dealWords(S.body), $("deal-tags"),
    { kind: "tip", ms: 8000 }));
  dealing.wire();
  review.wire();
  $("btn-keys").addEventListener("click", () => {
    input.openKeys(!$("move-form").classList.contains("open"));
    $("move-input").focus();
  });
  $("settings-form").addEventListener("change", saveFromDialog);
  $("move-form").addEventListener("submit", input.submitMove);
  document.addEventListener("keydown", input.onKey);
  enableDrag(table, { pickup: input.pickup, dropAt: input.dropAt, click: input.click });
  enableKeyboard(table, { activate: input.activate, cancel: input.cancelHeld });
  // Any change of the table's size (window, phone turned, the bar wrapping) redraws it.
  let size = "";
  new ResizeObserver(() => {
    const now = `${table.clientWidth}x${table.clientHeight}`;
    if (now === size || !S.body) return;
    size = now;
    draw({ ms: 0 });
  }).observe(table);
  setInterval(() => { if (S.body) tick(S.body, settings, S.timerAt); }, 1000);
}

/** Load the language's table (only that one) and speak it. */
async function useLanguage(lang) {
  await loadLanguage(lang);
  setLanguage(lang);
  document.title = t("app.title");
  help.relabel();
}

async function boot() {
  await useLanguage(pickLanguage(settings.lang));
  applySettings(settings);
  wire();
  const q = new URLSearchParams(location.search);
  const deal = linkedDeal(q), variant = q.get("variant"), gid = q.get("game");
  let body = null;
  if (gid) {
    try { body = await api.get(gid); } catch { body = null; }
    if (body && deal && body.observation.deal_id && body.observation.deal_id !== deal) body = null;
  } else if (!deal && !variant) {
    const saved = localStorage.getItem("kabale.game");
    if (saved) { try { body = await api.get(saved); } catch { body = null; } }
    if (body && body.status !== "playing") body = null;
  }
  await refreshBalance();
  if (body) {
    show(body, { ms: 0 });
    say(t("say.resumed", { name: variantName(body.observation.variant),
      n: body.observation.moves_made }));
  } else if (deal) {
    await resumeOrAsk(deal);
  } else {
    await newGame({ variant: variant || localStorage.getItem("kabale.variant") || "klondike" });
  }
  document.body.dataset.ready = "1";
  // Installable as an app (static/sw.js keeps the page's files, never a game's answers).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}

boot();

// For tests, tools and the helpers built on the table: the last body the server sent, a promise
// of the moment every queued request is answered, and lighting a move given in notation.
window.kabale = {
  body: () => S.body,
  idle: () => S.queue,
  highlight: (text) => highlightMove(table, S.body, text),
};
