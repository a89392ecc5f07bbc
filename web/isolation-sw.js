// A service worker that makes the page cross-origin isolated on static hosts
// that cannot send headers (GitHub Pages and the like): it adds
// Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy to the page's own
// responses, so WebAssembly threads become available after one reload. It
// only touches same-origin requests; everything else passes through as is.
// Registered by isolation.js; a server that sends the headers itself (npm run
// serve) never needs it.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith((async () => {
    const response = await fetch(request);
    if (response.status === 0 || response.type === 'opaque') return response;
    const headers = new Headers(response.headers);
    headers.set('Cross-Origin-Opener-Policy', 'same-origin');
    headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
    headers.set('Cross-Origin-Resource-Policy', 'same-origin');
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  })());
});
