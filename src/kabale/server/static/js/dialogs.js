// The new-game picker (families grouped, options as controls, deal number) and the
// statistics page (numbers per variant and a small SVG chart of recent results).

import { api } from "./api.js";

const LABELS = {
  draw: "Draw", passes: "Passes", empty: "Empty column takes", open: "All cards visible",
  back: "Foundation back to tableau", decks: "Decks", scoring: "Scoring", suits: "Suits",
  strict: "No deal onto an empty column",
};
const VALUE_LABELS = {
  passes: { 0: "unlimited" }, empty: { king: "a King", any: "any card" },
  open: { false: "no", true: "yes (Thoughtful)" }, back: { true: "allowed", false: "not allowed" },
  strict: { true: "yes", false: "no" }, decks: { 2: "2 (Double Klondike)" },
};
const TITLES = { klondike: "Klondike", spider: "Spider", spiderette: "Spiderette" };

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** Parse "spider:suits=2" into {family, options}. */
export function splitVariant(text) {
  const [family, rest] = text.split(":");
  const options = {};
  if (rest) for (const part of rest.split(",")) {
    const [k, v] = part.split("=");
    options[k] = v;
  }
  return { family, options };
}

/** Build the picker inside `box` from /api/variants; returns get() -> variant string. */
export function buildPicker(box, catalog, current) {
  box.replaceChildren();
  const cur = splitVariant(current || "klondike");
  for (const fam of catalog.families) {
    const id = `fam-${fam.id}`;
    const radio = h("input", { type: "radio", name: "family", value: fam.id, id });
    if (fam.id === cur.family) radio.checked = true;
    const legend = h("legend", {}, radio, h("label", { for: id, text: TITLES[fam.id] || fam.id }));
    const set = h("fieldset", { class: "family", "data-family": fam.id }, legend,
      h("p", { class: "desc", text: fam.description }));
    for (const [name, values] of Object.entries(fam.options)) {
      const select = h("select", { name, "aria-label": `${TITLES[fam.id]} ${LABELS[name] || name}` });
      for (const v of values) {
        const label = (VALUE_LABELS[name] && VALUE_LABELS[name][v]) || String(v);
        select.append(h("option", { value: String(v), text: label }));
      }
      if (fam.id === cur.family && cur.options[name] !== undefined) select.value = cur.options[name];
      select.addEventListener("change", () => { radio.checked = true; });
      set.append(h("label", { class: "opt" }, h("span", { text: LABELS[name] || name }), select));
    }
    box.append(set);
  }
  const presets = h("div", { class: "presets" }, h("span", { text: "Quick picks:" }));
  for (const [alias, variant] of Object.entries(catalog.aliases)) {
    const b = h("button", { type: "button", class: "chip", text: alias });
    b.addEventListener("click", () => buildPicker(box, catalog, variant));
    presets.append(b);
  }
  box.append(presets);
  return () => {
    const fam = box.querySelector('input[name="family"]:checked').value;
    const spec = catalog.families.find((f) => f.id === fam);
    const set = box.querySelector(`fieldset[data-family="${fam}"]`);
    const parts = [];
    for (const [name, values] of Object.entries(spec.options)) {
      const v = set.querySelector(`select[name="${name}"]`).value;
      if (v !== String(values[0])) parts.push(`${name}=${v}`);
    }
    return parts.length ? `${fam}:${parts.join(",")}` : fam;
  };
}

/** "1:05" from seconds. */
export function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.floor(seconds);
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

/** A small SVG chart: one bar per recent game (green won, red lost) and the running win %. */
export function chart(recent) {
  const w = 360, hgt = 120, n = Math.max(recent.length, 1);
  const bw = Math.min(w / n, 24);
  let won = 0;
  const pts = [];
  const bars = recent.map((r, i) => {
    if (r.result === "won") won += 1;
    pts.push(`${(i + 0.5) * bw},${hgt - (won / (i + 1)) * (hgt - 10) - 5}`);
    const bh = r.result === "won" ? hgt * 0.8 : hgt * 0.3;
    const colour = r.result === "won" ? "#3c9a5f" : "#c0504d";
    return `<rect x="${i * bw + 1}" y="${hgt - bh}" width="${Math.max(bw - 2, 1)}" height="${bh}"`
      + ` fill="${colour}"><title>${r.result}: score ${r.score}, ${r.moves} moves,`
      + ` ${clock(r.elapsed)}</title></rect>`;
  }).join("");
  const line = pts.length > 1
    ? `<polyline points="${pts.join(" ")}" fill="none" stroke="#1d3557" stroke-width="2"/>` : "";
  return `<svg class="chart" viewBox="0 0 ${w} ${hgt}" role="img"`
    + ` aria-label="recent results: ${won} won of ${recent.length}">${bars}${line}</svg>`;
}

/** Fill the statistics view for `variant` (and a picker of every variant played). */
export async function showStats(box, variant) {
  const all = await api.stats();
  const names = all.variants.map((v) => v.variant);
  if (variant && !names.includes(variant)) names.unshift(variant);
  const select = h("select", { id: "stats-variant", "aria-label": "variant" });
  for (const n of names) select.append(h("option", { value: n, text: n }));
  if (variant) select.value = variant;
  const body = h("div", { class: "stats-body" });
  async function fill(name) {
    const data = (await api.stats(name)).variants[0];
    const rows = [
      ["Played", data.played], ["Won", data.won], ["Win %", `${data.win_pct}%`],
      ["Current streak", data.current_streak], ["Best streak", data.best_streak],
      ["Best time", clock(data.best_time)], ["Best score", data.best_score ?? "–"],
    ];
    const table = h("table", { class: "stats" });
    for (const [k, v] of rows) table.append(h("tr", {}, h("th", { text: k }), h("td", { text: String(v) })));
    body.replaceChildren(table);
    const fig = h("figure", {});
    fig.innerHTML = data.recent.length ? chart(data.recent)
      : "<p>No finished games yet for this variant.</p>";
    if (data.recent.length) fig.append(h("figcaption", { text: "Last games (green won, red lost); line: win %" }));
    body.append(fig);
  }
  select.addEventListener("change", () => fill(select.value));
  box.replaceChildren(h("label", {}, h("span", { text: "Variant " }), select), body);
  if (names.length) await fill(select.value);
  else body.textContent = "No games played yet.";
}
