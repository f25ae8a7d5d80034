// The page: one game at a time, drawn only from the server's observations. Every action goes
// through a queue so moves are applied in order, one round trip each.

import { api } from "./api.js";
import { buildPicker, clock, showStats } from "./dialogs.js";
import { bestTarget, enableDrag } from "./drag.js";
import { describe, familyOf, findMove, legalMoves, bestMove } from "./moves.js";
import { render, targets } from "./table.js";

const $ = (id) => document.getElementById(id);
const table = $("table");
const S = { body: null, queue: Promise.resolve(), auto: null, autoOff: false, lastClick: 0,
  catalog: null, timerAt: 0, picker: null };
const settings = Object.assign({
  animations: !matchMedia("(prefers-reduced-motion: reduce)").matches, timer: true,
}, JSON.parse(localStorage.getItem("kabale.settings") || "{}"));

function animMs() { return settings.animations ? 170 : 0; }

/** Run `fn` after every earlier action; resolves to its result. */
function enqueue(fn) {
  const p = S.queue.then(fn);
  S.queue = p.catch(() => {});
  return p;
}

function echo(text, isError = false) {
  const line = $("echo");
  line.textContent = text;
  line.classList.toggle("error", isError);
}

function show(body, { animate = true } = {}) {
  const prev = S.body;
  S.body = body;
  S.timerAt = Date.now();
  const obs = body.observation;
  const same = prev && prev.id === body.id;
  const fromStock = same && obs.stock < prev.observation.stock;
  render(table, obs, animate && same ? animMs() : 0, fromStock);
  updateHud();
  remember();
  checkEnd();
}

/** A deal id for reading: a long number or deck cut short (as kabale.core.observe does). */
function shortDeal(dealId) {
  const at = dealId.lastIndexOf("#");
  return dealId.length - at - 1 > 12 ? `${dealId.slice(0, at + 9)}…` : dealId;
}

/** The deal as people read it: its id, or "variant#?" while the deal is secret. */
function dealName(obs) {
  return obs.deal_id ? shortDeal(obs.deal_id) : `${obs.variant}#?`;
}

function updateHud() {
  const { observation: obs, status } = S.body;
  $("variant-name").textContent = obs.variant;
  $("deal-id").textContent = obs.deal_id ? shortDeal(obs.deal_id) : "?";
  $("deal-id").title = obs.deal_id || "";
  $("score").textContent = String(obs.score);
  $("moves").textContent = String(obs.moves_made);
  $("btn-undo").disabled = !S.body.can_undo;
  $("btn-redo").disabled = !S.body.can_redo;
  document.body.dataset.family = familyOf(obs.variant);
  document.body.dataset.status = status;
  tick();
}

function tick() {
  const t = $("timer");
  t.hidden = !settings.timer;
  if (!S.body || !settings.timer) return;
  const running = S.body.status === "playing" && S.body.observation.outcome === "playing";
  const extra = running ? Math.min((Date.now() - S.timerAt) / 1000, 120) : 0;
  t.textContent = clock(S.body.elapsed + extra);
}

function remember() {
  const { id, observation: obs } = S.body;
  const deal = obs.deal_id ? `deal=${encodeURIComponent(obs.deal_id)}&` : "";
  const url = `?${deal}game=${encodeURIComponent(id)}`;
  if (location.search !== url) history.replaceState(null, "", url);
  localStorage.setItem("kabale.game", id);
  localStorage.setItem("kabale.variant", obs.variant);
}

// ---------------------------------------------------------------- actions

function play(text) {
  return enqueue(async () => {
    const before = S.body.observation;
    try {
      const body = await api.move(S.body.id, text);
      show(body);
      echo(`${body.move}: ${describe(before, body.move)}`);
      return true;
    } catch (err) {
      echo(`Not allowed: ${err.message}`, true);
      return false;
    }
  });
}

function undoRedo(which) {
  return enqueue(async () => {
    if (!S.body) return;
    stopAuto(true);
    try {
      const body = await api[which](S.body.id);
      show(body);
      echo(`${which === "undo" ? "Undone" : "Redone"}: ${body.move}`);
    } catch (err) {
      echo(err.message, true);
    }
  });
}

function newGame(spec) {
  return enqueue(async () => {
    const cur = S.body;
    if (cur && cur.status === "playing" && cur.observation.moves_made > 0
      && cur.observation.outcome !== "won") {
      try { await api.resign(cur.id); } catch { /* already over: nothing to count */ }
    }
    try {
      const body = await api.newGame(spec);
      S.autoOff = false;
      stopAuto(false);
      show(body, { animate: false });
      echo(`New game: ${dealName(body.observation)}`);
    } catch (err) {
      echo(err.message, true);
      if (!S.body) await api.newGame({ variant: "klondike" }).then((b) => show(b));
    }
  });
}

// ---------------------------------------------------------------- end of game, auto-finish

function banner(text, buttons) {
  const box = $("banner");
  $("banner-text").textContent = text;
  const row = $("banner-buttons");
  row.replaceChildren();
  for (const [label, fn] of buttons) {
    const b = document.createElement("button");
    b.textContent = label;
    b.addEventListener("click", fn);
    row.append(b);
  }
  box.hidden = false;
}

function hideBanner() { $("banner").hidden = true; }

function checkEnd() {
  const { observation: obs, status } = S.body;
  const again = ["New game", () => newGame({ variant: obs.variant })];
  if (obs.outcome === "won") {
    stopAuto(false);
    banner(`You won! Score ${obs.score}, ${obs.moves_made} moves, time ${clock(S.body.elapsed)}.`,
      [again, ["Statistics", openStats]]);
  } else if (status === "lost") {
    banner("This game was given up.", [again]);
  } else if (obs.outcome === "lost") {
    banner("No moves left.", [["Undo", () => undoRedo("undo")], again]);
  } else if (!autoFinish()) {
    hideBanner();
  }
}

function stopAuto(byUser) {
  clearTimeout(S.auto);
  S.auto = null;
  if (byUser) S.autoOff = true;
}

/** Klondike: once every card is face up and stock and waste are empty, play the rest. */
function autoFinish() {
  const obs = S.body.observation;
  if (familyOf(obs.variant) !== "klondike" || S.body.status !== "playing") return false;
  if (obs.stock || obs.waste.length || obs.down.some((d) => d > 0)) return false;
  const next = legalMoves(S.body).find((m) => m.target.startsWith("f"));
  if (!next) return false;
  if (S.autoOff) {
    banner("Every card is face up.", [["Finish", () => { S.autoOff = false; checkEnd(); }]]);
    return true;
  }
  banner("Finishing the game…", [["Stop", () => { stopAuto(true); checkEnd(); }]]);
  S.auto = setTimeout(() => { if (S.auto) play(next.text); }, settings.animations ? 220 : 10);
  return true;
}

// ---------------------------------------------------------------- pointer

function pickup(el) {
  if (!S.body || S.body.status !== "playing") return null;
  const obs = S.body.observation;
  const pile = el.dataset.pile, index = Number(el.dataset.index);
  if (/^\d+$/.test(pile)) {
    const c = Number(pile) - 1;
    if (!el.dataset.code || index < obs.down[c]) return null;
    const count = obs.columns[c].length - index;
    const els = [...table.querySelectorAll(`.card[data-pile="${pile}"]`)]
      .filter((e) => Number(e.dataset.index) >= index)
      .sort((a, b) => a.dataset.index - b.dataset.index);
    return { source: pile, count, els };
  }
  if (pile === "w" && index === obs.waste.length - 1) return { source: "w", count: 1, els: [el] };
  if (pile.startsWith("f") && familyOf(obs.variant) === "klondike"
    && index === obs.foundations[Number(pile.slice(1)) - 1].length - 1) {
    return { source: pile, count: 1, els: [el] };
  }
  return null;
}

async function dropAt(info, rect, x, y) {
  const t = bestTarget(targets(table, S.body.observation), rect, x, y);
  if (!t || t.target === info.source) return false;
  const m = findMove(S.body, info.source, info.count, t.target);
  if (m) return play(m.text);
  if (t.target === "f" && info.count > 1) {
    echo("Not allowed: only one card at a time goes to a foundation", true);
    return false;
  }
  const n = /^\d+$/.test(info.source) && t.target !== "f" ? `:${info.count}` : "";
  return play(`${info.source}${n}>${t.target}`);
}

function click(el, e) {
  if (e.detail > 1 || !S.body) return;
  if (el.dataset.pile === "d") { play("d"); return; }
  if (!el.classList.contains("card")) return;
  const info = pickup(el);
  if (!info) {
    if (!el.dataset.code) echo("That card is face down.", true);
    return;
  }
  const m = bestMove(S.body, info.source, info.count);
  if (m) {
    S.lastClick = Date.now();
    play(m.text);
  } else {
    echo(`No move for ${el.dataset.code}${info.count > 1 ? ` and the ${info.count - 1} on it` : ""}.`, true);
  }
}

function dblclick(el) {
  if (Date.now() - S.lastClick < 700) return;
  const info = pickup(el);
  const m = info && findMove(S.body, info.source, 1, "f");
  if (m) play(m.text);
}

// ---------------------------------------------------------------- keyboard

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
    } else if (k === "escape") input.value = "";
    return;
  }
  if (k === "u") undoRedo("undo");
  else if (k === "r") undoRedo("redo");
  else if (k === "n") openNew();
  else if (/^[0-9wfd>:]$/.test(k)) {
    e.preventDefault();
    input.focus();
    input.value += k;
  }
}

function submitMove(e) {
  e.preventDefault();
  const input = $("move-input");
  const text = input.value.trim().toLowerCase().replace(/\s+/g, "");
  input.value = "";
  if (text) play(text);
}

// ---------------------------------------------------------------- dialogs

async function openNew() {
  S.catalog = S.catalog || await api.variants();
  S.picker = buildPicker($("families"), S.catalog, S.body ? S.body.observation.variant : "klondike");
  const moves = S.body && S.body.status === "playing" ? S.body.observation.moves_made : 0;
  $("new-note").textContent = moves ? "The game in progress will count as lost." : "";
  $("dlg-new").showModal();
}

function dealFromDialog(e) {
  e.preventDefault();
  const seedText = $("new-seed").value.trim();
  if (seedText && !/^\d+$/.test(seedText)) {
    $("new-note").textContent = `Deal number must be a whole number, not "${seedText}".`;
    return;
  }
  $("dlg-new").close();
  newGame({ variant: S.picker(), ...(seedText ? { seed: Number(seedText) } : {}) });
}

async function openStats() {
  try {
    await showStats($("stats-box"), S.body ? S.body.observation.variant : null);
  } catch (err) {
    echo(err.message, true);  // e.g. a damaged database: the server says what is wrong
    return;
  }
  $("dlg-stats").showModal();
}

function openSettings() {
  $("set-anim").checked = settings.animations;
  $("set-timer").checked = settings.timer;
  $("dlg-settings").showModal();
}

function saveSettings() {
  settings.animations = $("set-anim").checked;
  settings.timer = $("set-timer").checked;
  localStorage.setItem("kabale.settings", JSON.stringify(settings));
  document.body.classList.toggle("no-anim", !settings.animations);
  tick();
}

// What "Copy link" asks before it reveals a secret deal (DESIGN.md 3b), in the page's
// languages; the rest of the page's strings are still written in English where they are used.
const REVEAL_QUESTION = {
  en: "The link names this deal's number, and with it anyone can know every face-down card."
    + " Copying it shows the number here too, for the rest of this game. Copy the link?",
  da: "Linket nævner spillets nummer, og med det kan enhver kende alle de skjulte kort."
    + " Kopierer du det, vises nummeret også her resten af spillet. Kopiér linket?",
  nb: "Lenken oppgir spillets nummer, og med det kan hvem som helst kjenne alle de skjulte"
    + " kortene. Kopierer du den, vises nummeret også her resten av spillet. Kopiere lenken?",
};

/** The page's language: its <html lang> ("en" in index.html until the page's translations
 * set it), else the browser's. */
function language() {
  const tag = (document.documentElement.lang || navigator.language || "en").toLowerCase();
  if (tag.startsWith("da")) return "da";
  return /^(nb|nn|no)\b/.test(tag) ? "nb" : "en";
}

/** Reveal a secret deal (asking first; the server records it), then copy its link. */
async function copyLink() {
  if (!S.body) return;
  if (!S.body.observation.deal_id) {
    if (!window.confirm(REVEAL_QUESTION[language()])) return;
    const shown = await enqueue(async () => {
      try {
        show(await api.reveal(S.body.id), { animate: false });
        return true;
      } catch (err) {
        echo(err.message, true);
        return false;
      }
    });
    if (!shown) return;
  }
  const link = `${location.origin}/?deal=${encodeURIComponent(S.body.observation.deal_id)}`;
  try {
    await navigator.clipboard.writeText(link);
    echo(`Copied ${link}`);
  } catch {
    echo(`Link to this deal: ${link}`);
  }
}

// ---------------------------------------------------------------- start

async function boot() {
  document.body.classList.toggle("no-anim", !settings.animations);
  $("btn-new").addEventListener("click", openNew);
  $("btn-undo").addEventListener("click", () => undoRedo("undo"));
  $("btn-redo").addEventListener("click", () => undoRedo("redo"));
  $("btn-stats").addEventListener("click", openStats);
  $("btn-settings").addEventListener("click", openSettings);
  $("btn-copy").addEventListener("click", copyLink);
  $("new-form").addEventListener("submit", dealFromDialog);
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
  $("settings-form").addEventListener("change", saveSettings);
  $("move-form").addEventListener("submit", submitMove);
  document.addEventListener("keydown", onKey);
  enableDrag(table, { pickup, dropAt, click, dblclick });
  let pending = false;
  window.addEventListener("resize", () => {
    if (pending || !S.body) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; render(table, S.body.observation); });
  });
  setInterval(tick, 1000);

  const q = new URLSearchParams(location.search);
  const deal = q.get("deal"), variant = q.get("variant");
  const gid = q.get("game") || (!deal && !variant ? localStorage.getItem("kabale.game") : null);
  let body = null;
  if (gid) {
    try { body = await api.get(gid); } catch { body = null; }
    if (body && deal && body.observation.deal_id !== deal) body = null;
    if (body && !q.get("game") && body.status !== "playing") body = null;
  }
  if (body) {
    show(body, { animate: false });
    echo(`Resumed ${dealName(body.observation)} after ${body.observation.moves_made} moves.`);
  } else if (deal) {
    await newGame({ deal_id: deal });
  } else {
    await newGame({ variant: variant || localStorage.getItem("kabale.variant") || "klondike" });
  }
  document.body.dataset.ready = "1";
}

boot();

// A read-only hook for tests and tools: the last body the server sent.
// for tests: the current body, and a promise of the moment every queued request is answered
window.kabale = { body: () => S.body, idle: () => S.queue };
