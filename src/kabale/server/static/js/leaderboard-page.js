// The leaderboard page: /leaderboard?variant=klondike&week=1 (GET /api/leaderboard). Every
// word comes from the message tables; nicknames are put in as text, never as markup.

import { loadLanguage, localize, number, pickLanguage, setLanguage, t } from "./i18n.js";
import { familyName } from "./names.js";
import { loadSettings } from "./settings.js";

const q = new URLSearchParams(location.search);
const variantPick = document.getElementById("board-variant");
let weekly = q.get("week") !== null;
variantPick.value = q.get("variant") || "klondike";

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function clock(seconds) {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

async function draw() {
  const path = `/api/leaderboard?variant=${encodeURIComponent(variantPick.value)}` +
    (weekly ? `&week=${isoWeek(new Date())}` : "");
  const body = document.querySelector("#board-table tbody");
  body.replaceChildren();
  document.getElementById("board-days").hidden = !weekly;
  document.getElementById("board-rule").textContent = t(weekly ? "board.weekrule" : "board.rule");
  const me = document.getElementById("board-me");
  let board;
  try {
    const res = await fetch(path, { headers: { Accept: "application/json" } });
    if (!res.ok) throw new Error(String(res.status));
    board = await res.json();
  } catch {
    me.textContent = t("board.error");
    return;
  }
  for (const entry of board.entries) {
    const tr = document.createElement("tr");
    tr.append(cell(number(entry.rank)), cell(entry.nickname ?? t("board.anonymous")));
    if (weekly) tr.append(cell(number(entry.days)));
    tr.append(cell(number(entry.moves)), cell(clock(entry.seconds)));
    body.append(tr);
  }
  if (!board.entries.length) me.textContent = t("board.empty");
  else me.textContent = board.me ? t("board.me", { rank: number(board.me.rank), n: number(board.players) })
    : t("board.notyet");
}

function isoWeek(date) {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const start = new Date(Date.UTC(d.getUTCFullYear(), 0, 1));
  const week = Math.ceil(((d - start) / 86400000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

async function nicknameForm() {
  const res = await fetch("/api/player");
  if (!res.ok) return; // `kabale play`: one player, no nickname
  const form = document.getElementById("board-name");
  const input = document.getElementById("board-nickname");
  input.value = (await res.json()).nickname ?? "";
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await fetch("/api/player/nickname", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ nickname: input.value.trim() || null }),
    });
    draw();
  });
}

// Only the language in use is loaded (i18n.js): the page speaks once its table is here.
const lang = pickLanguage(q.get("lang") || loadSettings().lang);
loadLanguage(lang).then(() => {
  setLanguage(lang);
  localize();
  for (const option of variantPick.options) option.textContent = familyName(option.value);
  variantPick.addEventListener("change", draw);
  document.getElementById("board-daily").addEventListener("click", () => { weekly = false; draw(); });
  document.getElementById("board-weekly").addEventListener("click", () => { weekly = true; draw(); });
  draw();
  nicknameForm();
});
