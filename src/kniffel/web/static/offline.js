// Installing the board (docs/board.md, "Installing the board"): the service worker at /sw.js
// keeps the page's files and the pages this device opened. Browsers give it only to a secure
// context (https, or http://127.0.0.1); over plain http on the local network the page works as
// before, without it.
"use strict";
if (window.isSecureContext && "serviceWorker" in navigator) {
  const opened = navigator.serviceWorker.controller === null;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // Refused (private mode, a browser setting): the board works without it.
  });
  if (opened) {
    // This page came before the worker: it asks to be kept for the next visit with no network.
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) registration.active.postMessage({ keep: location.href });
    });
  }
}
