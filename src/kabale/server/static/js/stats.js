// The statistics dialog: all games together or one variant, with averages, the wins without
// help apart, the Vegas balance, the daily deals' streak of days, a chart of recent results
// (told by bar height and a mark, not by colour alone) and a reset.

import { api } from "./api.js";
import { ask, clock, h } from "./dialogs.js";
import { money, number, t } from "./i18n.js";
import { optionOf } from "./moves.js";
import { variantName } from "./names.js";

const ALL = "";

export function isVegas(variant) { return optionOf(variant, "scoring") === "vegas"; }

/** The running Vegas balance: the scores of every finished Vegas game added up. */
export function vegasBalance(statsBody) {
  return statsBody.variants.filter((v) => isVegas(v.variant))
    .reduce((sum, v) => sum + v.total_score, 0);
}

/** A small SVG chart: a bar per recent game (tall with ✓ won, short with ✗ lost), win % line. */
export function chart(recent) {
  const w = 360, hgt = 120, n = Math.max(recent.length, 1);
  const bw = Math.min(w / n, 24);
  let won = 0;
  const pts = [];
  const bars = recent.map((r, i) => {
    if (r.result === "won") won += 1;
    pts.push(`${(i + 0.5) * bw},${hgt - (won / (i + 1)) * (hgt - 10) - 5}`);
    const win = r.result === "won";
    const bh = win ? hgt * 0.8 : hgt * 0.3;
    const title = t("stats.bar", { result: t(`stats.result.${r.result}`), score: r.score,
      moves: r.moves, time: clock(r.elapsed) }) + (r.assisted ? t("stats.bar.assisted") : "");
    return `<g><title>${title}</title><rect x="${i * bw + 1}" y="${hgt - bh}"`
      + ` width="${Math.max(bw - 2, 1)}" height="${bh}" class="${win ? "bar-won" : "bar-lost"}"/>`
      + (bw >= 10 ? `<text x="${(i + 0.5) * bw}" y="${hgt - bh + 11}" text-anchor="middle"`
        + ` class="bar-mark">${win ? "✓" : "✗"}</text>` : "")
      + `</g>`;
  }).join("");
  const line = pts.length > 1
    ? `<polyline points="${pts.join(" ")}" class="win-line" fill="none"/>` : "";
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "chart");
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("stats.chart", { won, n: recent.length }));
  svg.innerHTML = bars + line;
  return svg;
}

function rows(data, vegas) {
  const opt = (v, f = number) => (v === null || v === undefined ? "–" : f(v));
  const out = [
    [t("stats.played"), number(data.played)], [t("stats.won"), number(data.won)],
    [t("stats.win_pct"), number(data.win_pct)],
    [t("stats.won_unassisted"), number(data.won_unassisted)],
    [t("stats.win_pct_unassisted"), number(data.win_pct_unassisted)],
    [t("stats.streak"), number(data.current_streak)],
    [t("stats.best_streak"), number(data.best_streak)],
    [t("stats.best_time"), clock(data.best_time)],
    [t("stats.best_score"), opt(data.best_score, vegas ? money : number)],
    [t("stats.avg_moves"), opt(data.avg_moves)],
    [t("stats.avg_time"), clock(data.avg_time)],
    [t("stats.avg_score"), opt(data.avg_score, vegas ? money : number)],
  ];
  if (vegas) out.push([t("stats.balance"), money(data.total_score)]);
  return out;
}

/** The daily deals' rows of one variant (none when no daily deal was played). */
function dailyRows(daily) {
  if (!daily || !daily.days_played) return [];
  return [[t("stats.daily.days_played"), number(daily.days_played)],
    [t("stats.daily.days_won"), number(daily.days_won)],
    [t("stats.daily.streak"), number(daily.current_streak)],
    [t("stats.daily.best_streak"), number(daily.best_streak)]];
}

function statsTable(list, caption) {
  const table = h("table", { class: "stats" });
  if (caption) table.append(h("caption", { text: caption }));
  for (const [k, v] of list) table.append(h("tr", {}, h("th", { scope: "row", text: k }), h("td", { text: v })));
  return table;
}

function fillBody(body, data, vegas) {
  body.replaceChildren(statsTable(rows(data, vegas)));
  const daily = dailyRows(data.daily);
  if (daily.length) body.append(statsTable(daily, t("stats.daily")));
  if (!data.recent.length) {
    body.append(h("p", { text: t("stats.none") }));
    return;
  }
  body.append(h("figure", {}, chart(data.recent), h("figcaption", { text: t("stats.recent") })));
}

/** Fill the statistics dialog's `box`, starting at `variant` (null: all games). */
export async function showStats(box, variant, onReset) {
  const all = await api.stats();
  const names = all.variants.map((v) => v.variant);
  if (variant && !names.includes(variant)) names.unshift(variant);
  const select = h("select", { id: "stats-variant" });
  select.append(h("option", { value: ALL, text: t("stats.all") }));
  for (const n of names) select.append(h("option", { value: n, text: variantName(n) }));
  select.value = variant || ALL;
  const body = h("div", { class: "stats-body" });
  const reset = h("button", { type: "button", id: "stats-reset", text: t("btn.reset") });
  async function fill(name) {
    const data = name === ALL ? (await api.stats()).all : (await api.stats(name)).variants[0];
    fillBody(body, data, name !== ALL && isVegas(name));
  }
  select.addEventListener("change", () => fill(select.value));
  reset.addEventListener("click", async () => {
    const name = select.value;
    const text = name === ALL ? t("confirm.reset_all")
      : t("confirm.reset_one", { name: variantName(name) });
    const yes = await ask(text, [[t("btn.reset_confirm"), true], [t("btn.cancel"), false]]);
    if (!yes) return;
    await api.resetStats(name === ALL ? null : name);
    await fill(name);
    if (onReset) onReset();
  });
  box.replaceChildren(h("div", { class: "stats-head" },
    h("label", { for: "stats-variant", text: t("stats.which") }), select, reset), body);
  await fill(select.value);
}
