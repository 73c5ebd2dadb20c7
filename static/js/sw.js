// The service worker of Firenze's push notifications, served from /sw.js so that its scope is
// the whole site (notifications.views.service_worker).
//
// A push carries {title, body, url, tag, kind} (notifications/push.py). If a visible tab
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

self.addEventListener("push", function (event) {
  var data = readPush(event);
  var path = pathOf(data.url);
  event.waitUntil(
    windowsAt(path).then(function (open) {
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
