// The JSON API (DESIGN.md 3c). Every call resolves to the parsed body or throws ApiError
// carrying the server's one-line reason.

export class ApiError extends Error {
  constructor(status, message, code = null) {
    super(message);
    this.status = status;
    this.code = code;   // a refusal the page words itself ("busy", "no_deal"), or null
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (method === "POST") {  // the server takes only JSON posts (DESIGN.md 3c)
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "the kabale server does not answer (was it stopped?)");
  }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`,
      (data && data.code) || null);
  }
  return data;
}

export const api = {
  newGame: (spec) => call("POST", "/api/games", spec),
  get: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  move: (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move }),
  undo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  redo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/redo`),
  resign: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/resign`),
  reveal: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/reveal`),
  hint: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/hint`),
  chance: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/chance`),
  bot: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/bot`),
  postmortem: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/postmortem`),
  review: (id, at, then = []) => call("GET", `/api/games/${encodeURIComponent(id)}/review?at=${at}`
    + (then.length ? `&then=${encodeURIComponent(then.join(","))}` : "")),
  analysis: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/analysis`),
  analysisState: (id) => call("GET", `/api/games/${encodeURIComponent(id)}/analysis`),
  coach: (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/coach`, { move }),
  replay: (id, at) => call("POST", `/api/games/${encodeURIComponent(id)}/replay`, { at }),
  variants: () => call("GET", "/api/variants"),
  stats: (variant) => call("GET", `/api/stats${variant ? `?variant=${encodeURIComponent(variant)}` : ""}`),
  resetStats: (variant) => call("POST", "/api/stats/reset", variant ? { variant } : {}),
};
