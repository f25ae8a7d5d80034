// The new-game dialog: the game and its options (the picker in dialogs.js), then the deal:
// a deal number, or any deal, a winnable one (of a grade, if one is chosen) or today's; and,
// while a game is in progress, the way to give it up.

import { api } from "./api.js";
import { buildPicker } from "./dialogs.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** The deal the dialog asks for: a deal number, or any, a winnable (graded), or today's. */
function dealSpec(variant, seedText) {
  if (seedText) return { variant, seed: Number(seedText) };
  const kind = document.querySelector('input[name="kind"]:checked').value;
  const grade = $("new-grade").value;
  if (kind === "daily") return { variant, daily: true };
  if (kind === "winnable") return grade ? { variant, grade } : { variant, winnable: true };
  return { variant };
}

/** A deal number picks the deal itself: the other ways of choosing one wait meanwhile. */
function syncDealKind() {
  const numbered = $("new-seed").value.trim() !== "";
  for (const input of document.querySelectorAll('input[name="kind"]')) input.disabled = numbered;
  $("new-grade").disabled = numbered || !$("kind-winnable").checked;
}

export function createNewGame(ctx) {
  const D = { catalog: null, picker: null };

  async function open() {
    const body = ctx.body();
    D.catalog = D.catalog || await api.variants();
    D.picker = buildPicker($("families"), D.catalog, body ? body.observation.variant : "klondike");
    const moves = body && body.status === "playing" && body.observation.outcome === "playing"
      ? body.observation.moves_made : 0;
    $("new-note").textContent = moves ? t("new.counts_lost") : "";
    $("btn-resign").hidden = !moves;
    syncDealKind();
    $("dlg-new").showModal();
  }

  function deal(e) {
    e.preventDefault();
    const seedText = $("new-seed").value.trim();
    if (seedText && !/^\d+$/.test(seedText)) {
      $("new-note").textContent = t("new.seed.bad", { text: seedText });
      return;
    }
    $("dlg-new").close();
    ctx.newGame(dealSpec(D.picker(), seedText));
  }

  function wire() {
    $("new-form").addEventListener("submit", deal);
    $("new-cancel").addEventListener("click", () => $("dlg-new").close());
    $("new-seed").addEventListener("input", syncDealKind);
    for (const input of document.querySelectorAll('input[name="kind"]')) {
      input.addEventListener("change", syncDealKind);
    }
  }

  return { open, wire };
}
