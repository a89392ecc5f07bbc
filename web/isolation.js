// Cross-origin isolation on any static host: when the page is not isolated
// (the host sent no COOP/COEP headers), register isolation-sw.js, which adds
// them to the page's own responses, and reload once it controls the page.
// Runs before the app (a classic script in <head>); while a reload may come,
// `window.iopddlIsolation` is a promise the app waits on before starting the
// solver (it resolves when no reload will come, at the latest after 4 s).
// Where service workers are unavailable (not a secure context, or disabled)
// nothing happens and the page runs on one thread, saying why.
// `?isolation=off` skips it (the tests use it to see the fallback).
(function () {
  if (window.crossOriginIsolated || !window.isSecureContext || !('serviceWorker' in navigator)) return;
  if (new URLSearchParams(location.search).get('isolation') === 'off') return;
  var KEY = 'iopddl-isolation-reload';
  function reloadOnce() {
    if (sessionStorage.getItem(KEY)) return false;  // never in a loop
    sessionStorage.setItem(KEY, '1');
    location.reload();
    return true;
  }
  window.iopddlIsolation = new Promise(function (resolve) {
    setTimeout(resolve, 4000);
    if (navigator.serviceWorker.controller) {
      // Controlled yet not isolated: the worker was not in charge when this
      // page loaded (a hard reload), or the browser ignores its headers.
      if (!reloadOnce()) resolve();
      return;
    }
    navigator.serviceWorker.register(new URL('isolation-sw.js', document.baseURI).href).then(function (reg) {
      function whenActive(worker) {
        if (!worker) return resolve();
        if (worker.state === 'activated') {
          if (!reloadOnce()) resolve();
          return;
        }
        if (worker.state === 'redundant') return resolve();
        worker.addEventListener('statechange', function () { whenActive(worker); });
      }
      whenActive(reg.installing || reg.waiting || reg.active);
    }, function () { resolve(); });
  });
})();
