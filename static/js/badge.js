// The app badge (an installed site's icon on the home screen or the dock): the number of games
// waiting for the player's move, read from the "Your move" link's count that every page of a
// signed-in player carries. Signed out (no such link), the badge is left alone. Signed in,
// the service worker is registered.
"use strict";

(function () {
  var link = document.querySelector(".nav-inbox");
  if (!link) {
    return;
  }
  // The service worker keeps the player's own pages readable offline (static/js/sw.js).
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  if (!("setAppBadge" in navigator)) {
    return;
  }
  var count = link.querySelector(".inbox-count");
  var waiting = count ? parseInt(count.textContent, 10) || 0 : 0;
  var done = waiting > 0 ? navigator.setAppBadge(waiting) : navigator.clearAppBadge();
  if (done && done.catch) {
    done.catch(function () {});  // not installed, or the platform has no badge: nothing to do
  }
})();
