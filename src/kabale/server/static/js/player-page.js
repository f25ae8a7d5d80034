// The player's own data on a hosted kabale (`kabale serve`): a one-time code to play on
// another device, and deleting everything of theirs (POST /api/player/...). Under `kabale
// play` there is one local player and nothing to do here.

import { loadLanguage, localize, number, pickLanguage, setLanguage, t } from "./i18n.js";
import { loadSettings, saveSettings } from "./settings.js";

const $ = (id) => document.getElementById(id);
const status = $("me-status");

async function post(path, body = {}) {
  return fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
}

async function show() {
  const res = await fetch("/api/player");
  if (!res.ok) {
    status.textContent = t("me.local");
    return;
  }
  const me = await res.json();
  $("me-hosted").hidden = false;
  status.textContent = me.player ? t("me.games", { n: number(me.games) }) : t("me.none");
  $("me-make").disabled = !me.player;
  $("me-delete").disabled = !me.player;
}

$("me-make").addEventListener("click", async () => {
  const res = await post("/api/player/transfer");
  $("me-code").textContent = res.ok ? t("me.move.code", { code: (await res.json()).code }) : "";
});

$("me-redeem").addEventListener("submit", async (event) => {
  event.preventDefault();
  const res = await post("/api/player/redeem", { code: $("me-code-input").value });
  $("me-code").textContent = t(res.ok ? "me.move.done" : "me.move.bad");
  if (res.ok) {
    // The settings the player kept on the other device are this browser's from now on.
    const kept = (await res.json()).settings || {};
    if (Object.keys(kept).length) saveSettings({ ...loadSettings(), ...kept });
    show();
  }
});

$("me-delete").addEventListener("click", async () => {
  if (!confirm(t("me.delete.warn"))) return;
  const res = await post("/api/player/delete", { confirm: true });
  if (res.ok) {
    status.textContent = t("me.delete.done");
    $("me-make").disabled = $("me-delete").disabled = true;
    $("me-code").textContent = "";
  }
});

// Only the language in use is loaded (i18n.js): the page speaks once its table is here.
const lang = pickLanguage(new URLSearchParams(location.search).get("lang") || loadSettings().lang);
loadLanguage(lang).then(() => {
  setLanguage(lang);
  localize();
  show();
});
