// The service worker of Firenze's push notifications, served from /sw.js so that its scope is
// the whole site (notifications.views.service_worker).
//
// A push carries {title, body, url, tag, kind, badge} (notifications/push.py): badge, the number
// of games waiting for the player's move, goes on the installed app's icon. If a visible tab
// already shows that game, nothing pops up: the tab is told instead and refreshes the game at
// once (static/js/chat.js). Otherwise the notification is shown; a click focuses a tab of the
// game or opens one. Only pages of this site are ever opened.
"use strict";

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function readPush(event) {
  if (!event.data) {
    return { title: "Firenze", body: "" };
  }
  try {
    return event.data.json();
  } catch (error) {
    return { title: "Firenze", body: event.data.text() };
  }
}

function pathOf(url) {
  try {
    var parsed = new URL(url || "/", self.location.origin);
    return parsed.pathname;
  } catch (error) {
    return "/";
  }
}

function windowsAt(path) {
  return self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    return list.filter(function (client) {
      return pathOf(client.url) === path;
    });
  });
}

// The app badge as the push counted it (static/js/badge.js sets it again on every page load).
// Where the platform has no badge, or the site is not installed, nothing happens.
function setBadge(count) {
  if (typeof count !== "number" || !("setAppBadge" in self.navigator)) {
    return Promise.resolve();
  }
  var done = count > 0 ? self.navigator.setAppBadge(count) : self.navigator.clearAppBadge();
  return Promise.resolve(done).catch(function () {});
}

// The badge is set last, once the notification is shown (or the visible tab told): a count on
// the icon then means the push has been handled in full. Chromium's getNotifications() forgets,
// for good, a notification it is asked about while it is stored but not yet on display, so
// whoever reads the list (the installed app's test) waits for the badge first.
self.addEventListener("push", function (event) {
  var data = readPush(event);
  var path = pathOf(data.url);
  var handled = windowsAt(path).then(function (open) {
    var visible = open.filter(function (client) {
      return client.visibilityState === "visible";
    });
    if (visible.length && path !== "/") {
      visible.forEach(function (client) {
        client.postMessage({ type: "firenze-push", kind: data.kind || "" });
      });
      return undefined;
    }
    return self.registration.showNotification(data.title || "Firenze", {
      body: data.body || "",
      tag: data.tag || "firenze",
      renotify: true,
      data: { path: path },
    });
  });
  var badged = function () {
    return setBadge(data.badge);
  };
  event.waitUntil(
    handled.then(badged, function (error) {
      return badged().then(function () {
        throw error;
      });
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var path = (event.notification.data && event.notification.data.path) || "/";
  event.waitUntil(
    windowsAt(path).then(function (open) {
      if (open.length && "focus" in open[0]) {
        return open[0].focus();
      }
      return self.clients.openWindow(new URL(path, self.location.origin).href);
    })
  );
});

// Offline reading (community/install.py makes the site installable): the player's own pages
// (their inbox, My games, the games they opened) are kept as they were last loaded, and shown
// when the network is gone, with a banner saying so and no form to post: nothing is played
// offline. Only full-page GETs of these paths are kept; signing out forgets them all.
var PAGES = "firenze-pages-v1";
var KEPT = /^\/(inbox\/|games\/mine\/|games\/\d+\/)$/;
var OFFLINE = {
  en: "You are offline: this is the page as it was when you last loaded it. Nothing can be played until you are back online.",
  de: "Du bist offline: Das ist die Seite, wie du sie zuletzt geladen hast. Gespielt werden kann erst wieder, wenn du online bist.",
};

function markedOffline(response) {
  return response.text().then(function (html) {
    var lang = (html.match(/<html lang="(\w+)/) || [])[1] === "de" ? "de" : "en";
    var banner = '<p class="offline-banner" role="status">' + OFFLINE[lang] + "</p>";
    html = html.replace(/<body([^>]*)>/, '<body$1 data-offline="true">' + banner);
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.mode !== "navigate") {
    return;
  }
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (url.pathname.indexOf("/accounts/logout/") === 0) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  if (!KEPT.test(url.pathname)) {
    return;
  }
  event.respondWith(
    fetch(request)
      .then(function (response) {
        if (response.ok && !response.redirected) {
          var copy = response.clone();
          caches.open(PAGES).then(function (cache) {
            cache.put(url.pathname, copy);
          });
        }
        return response;
      })
      .catch(function () {
        return caches.match(url.pathname).then(function (kept) {
          if (!kept) {
            throw new Error("offline and never loaded");
          }
          return markedOffline(kept);
        });
      })
  );
});
