// The new-game picker (the game as a choice of three, then only its options, by their names),
// a question dialog that answers with a promise, and small helpers shared by the dialogs.

import { t } from "./i18n.js";
import { optionsOf } from "./moves.js";
import { familyName, optionLabel, valueLabel, variantName } from "./names.js";

/** An element: h("p", {class: "x", text: "words"}, ...children). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  node.append(...children);
  return node;
}

/** "1:05" from seconds ("–" for none). */
export function clock(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function familyChoice(fam, checked, onPick) {
  const id = `fam-${fam.id}`;
  const radio = h("input", { type: "radio", name: "family", value: fam.id, id });
  radio.checked = checked;
  radio.addEventListener("change", onPick);
  return h("label", { class: "game-choice", for: id }, radio,
    h("span", { class: "game-name", text: familyName(fam.id) }),
    h("span", { class: "game-desc", text: t(`desc.${fam.id}`) }));
}

function familyOptions(fam, current) {
  const set = h("fieldset", { class: "family", "data-family": fam.id },
    h("legend", { text: `${t("new.options")}: ${familyName(fam.id)}` }));
  for (const [name, values] of Object.entries(fam.options)) {
    const id = `opt-${fam.id}-${name}`;
    const select = h("select", { name, id });
    for (const v of values) select.append(h("option", { value: String(v), text: valueLabel(name, v) }));
    if (current && current[name] !== undefined) select.value = current[name];
    set.append(h("div", { class: "opt" }, h("label", { for: id, text: optionLabel(name) }), select));
  }
  return set;
}

/** Build the picker inside `box` from /api/variants, starting at variant `current`;
 *  returns get() -> the chosen variant string. */
export function buildPicker(box, catalog, current) {
  box.replaceChildren();
  const [curFamily] = (current || "klondike").split(":");
  const cur = optionsOf(current || "klondike");
  const sets = new Map();
  const show = () => {
    const fam = box.querySelector('input[name="family"]:checked').value;
    for (const [id, set] of sets) set.hidden = id !== fam;
  };
  const games = h("fieldset", { class: "games" }, h("legend", { text: t("new.game") }));
  for (const fam of catalog.families) games.append(familyChoice(fam, fam.id === curFamily, show));
  box.append(games);
  for (const fam of catalog.families) {
    const set = familyOptions(fam, fam.id === curFamily ? cur : null);
    sets.set(fam.id, set);
    box.append(set);
  }
  const presets = h("div", { class: "presets", role: "group", "aria-label": t("new.quick") },
    h("span", { text: `${t("new.quick")}:` }));
  for (const variant of Object.values(catalog.aliases)) {
    const b = h("button", { type: "button", class: "chip", text: variantName(variant) });
    b.addEventListener("click", () => buildPicker(box, catalog, variant));
    presets.append(b);
  }
  box.append(presets);
  show();
  return () => {
    const fam = box.querySelector('input[name="family"]:checked').value;
    const spec = catalog.families.find((f) => f.id === fam);
    const set = sets.get(fam);
    const parts = [];
    for (const [name, values] of Object.entries(spec.options)) {
      const v = set.querySelector(`select[name="${name}"]`).value;
      if (v !== String(values[0])) parts.push(`${name}=${v}`);
    }
    return parts.length ? `${fam}:${parts.join(",")}` : fam;
  };
}

/** Ask `text` in the question dialog with `buttons` [[label, value], ...] (the first is the
 *  default); resolves to the value chosen, or null when the dialog is dismissed. */
export function ask(text, buttons) {
  const dlg = document.getElementById("dlg-ask");
  document.getElementById("ask-text").textContent = text;
  const row = document.getElementById("ask-buttons");
  row.replaceChildren();
  return new Promise((resolve) => {
    let answer = null;
    buttons.forEach(([label, value], i) => {
      const b = h("button", { type: "button", class: i === 0 ? "primary" : "", text: label });
      b.addEventListener("click", () => { answer = value; dlg.close(); });
      row.append(b);
    });
    dlg.addEventListener("close", () => resolve(answer), { once: true });
    dlg.showModal();
    row.firstChild.focus();
  });
}
