// The JSON API (docs/api.md, "The HTTP API"). Every call resolves to the parsed body or
// throws ApiError carrying the server's one-line reason.

export class ApiError extends Error {
  constructor(status, message, code = null, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code;   // a refusal the page words itself ("busy", "no_deal"), or null
    this.retryAfter = retryAfter;   // seconds to wait before asking again (Retry-After)
  }
}

async function call(method, path, body, signal = undefined) {
  const init = { method, headers: {}, signal };
  // the server takes only JSON posts (docs/api.md, "Errors and request rules")
  if (method === "POST") {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    // the page stopped waiting (AbortController): not the server's fault
    if (err && err.name === "AbortError") throw new ApiError(0, "aborted", "aborted");
    throw new ApiError(0, "the kabale server does not answer (was it stopped?)");
  }
  let data = null;
  try { data = await res.json(); } catch { /* not JSON */ }
  if (!res.ok) {
    throw new ApiError(res.status, (data && data.error) || `HTTP ${res.status}`,
      (data && data.code) || null, (data && data.retry_after) || null);
  }
  return data;
}

export const api = {
  newGame: (spec) => call("POST", "/api/games", spec),
  get: (id) => call("GET", `/api/games/${encodeURIComponent(id)}`),
  move: (id, move) => call("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move }),
  // why a move is refused, asked without playing it (nothing changes)
  explain: (id, move) => call("GET", `/api/games/${encodeURIComponent(id)}/explain?move=${encodeURIComponent(move)}`),
  undo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/undo`),
  redo: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/redo`),
  resign: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/resign`),
  reveal: (id) => call("POST", `/api/games/${encodeURIComponent(id)}/reveal`),
  hint: (id, signal) => call("POST", `/api/games/${encodeURIComponent(id)}/hint`, {}, signal),
  // stop the help being worked out for a game (docs/api.md, "Help as jobs")
  cancelHelp: (id) => call("DELETE", `/api/games/${encodeURIComponent(id)}/help`),
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
