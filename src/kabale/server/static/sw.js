// The service worker that lets the page be installed as an app. It keeps copies of the page's
// own files (never an answer of the game API) and serves them only when the network fails:
// the files stay fresh while the server runs, and without the server the page still opens
// and says that the server does not answer; no move, hint or game can be had without it.

const CACHE = "kabale-static-v1";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const own = url.origin === self.location.origin;
  const isStatic = own && (url.pathname === "/" || url.pathname.startsWith("/static/"));
  if (event.request.method !== "GET" || !isStatic) return;   // the API: always the network
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const answer = await fetch(event.request);
      if (answer.ok) await cache.put(url.pathname === "/" ? "/" : event.request, answer.clone());
      return answer;
    } catch (err) {
      const kept = await cache.match(url.pathname === "/" ? "/" : event.request);
      if (kept) return kept;
      throw err;
    }
  })());
});
