// Coach mode (a setting, off by default): before a move the review would grade a mistake or
// worse, the page asks first. The grade comes from the server's coach route, which works from
// what the player has seen and counts the game as played with help.

import { api } from "./api.js";
import { ask } from "./dialogs.js";
import { percent, t } from "./i18n.js";

/** Coach mode: the move's grade from what the player has seen; before a mistake or worse,
 *  "sure?" with the reason. True: play it. A coach that cannot answer lets the move be. */
export async function coachAgrees(before, text) {
  let got;
  try {
    got = (await api.coach(before.id, text)).coach;
  } catch (err) {
    return true;
  }
  if (got.grade !== "mistake" && got.grade !== "blunder") return true;
  return ask(t("coach.sure", { move: got.move, grade: t(`grades.name.${got.grade}`), best: got.best,
    value: percent(got.best_value), chosen: percent(got.chosen_value) }),
  [[t("btn.play_anyway"), true], [t("btn.cancel"), false]]);
}
