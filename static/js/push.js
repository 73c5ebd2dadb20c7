// "Allow notifications on this device" on the notification settings page
// (templates/notifications/preferences.html). Registers the service worker (/sw.js, scope: the
// whole site), subscribes with the site's VAPID public key and posts the subscription to the
// server; "Stop" unsubscribes and tells the server. No inline script: the site has a CSP.
(function () {
  "use strict";

  var box = document.getElementById("push-controls");
  if (!box) {
    return;
  }
  var enable = document.getElementById("push-enable");
  var disable = document.getElementById("push-disable");
  var status = document.getElementById("push-status");

  var words = box.dataset;

  function say(text) {
    status.textContent = text;
  }

  // The player's words for what went wrong: the browser's own message ("Registration failed -
  // permission denied") is for developers, and in English whatever the page's language.
  function why(error, fallback) {
    if (error && error.fromServer) {
      return error.message;
    }
    if (error && error.name === "NotAllowedError") {
      return words.sayDenied;
    }
    if (error && error.name === "TypeError") {
      return words.sayOffline;  // fetch() failed: no connection
    }
    return fallback;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    say(words.sayUnsupported);
    return;
  }

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) {
      return decodeURIComponent(match[1]);
    }
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function post(url, data) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
      body: new URLSearchParams(data),
    }).then(function (response) {
      return response.json().catch(function () {
        return {};
      }).then(function (body) {
        if (!response.ok) {
          var refused = new Error(body.error || words.sayFailed);
          refused.fromServer = true;
          throw refused;
        }
        return body;
      });
    });
  }

  function keyBytes(base64url) {
    var padded = base64url + "===".slice((base64url.length + 3) % 4);
    var raw = atob(padded.replace(/-/g, "+").replace(/_/g, "/"));
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i += 1) {
      bytes[i] = raw.charCodeAt(i);
    }
    return bytes;
  }

  function show(subscription) {
    enable.hidden = Boolean(subscription);
    disable.hidden = !subscription;
    if (Notification.permission === "denied") {
      enable.hidden = true;
      say(words.sayBlocked);
    } else if (subscription) {
      say(words.sayOn);
    } else {
      say(words.sayOff);
    }
  }

  var ready = navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
    return navigator.serviceWorker.ready;
  });

  ready
    .then(function (registration) {
      return registration.pushManager.getSubscription();
    })
    .then(show)
    .catch(function (error) {
      say(why(error, words.sayFailed));
    });

  enable.addEventListener("click", function () {
    enable.disabled = true;
    Notification.requestPermission()
      .then(function (permission) {
        if (permission !== "granted") {
          var denied = new Error("permission " + permission);
          denied.name = "NotAllowedError";
          throw denied;
        }
        return ready;
      })
      .then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.key),
        });
      })
      .then(function (subscription) {
        var json = subscription.toJSON();
        return post(box.dataset.subscribe, {
          endpoint: json.endpoint,
          p256dh: json.keys.p256dh,
          auth: json.keys.auth,
        });
      })
      .then(function () {
        window.location.reload();
      })
      .catch(function (error) {
        enable.disabled = false;
        say(why(error, words.sayFailed));
      });
  });

  disable.addEventListener("click", function () {
    disable.disabled = true;
    ready
      .then(function (registration) {
        return registration.pushManager.getSubscription();
      })
      .then(function (subscription) {
        if (!subscription) {
          return null;
        }
        var endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(box.dataset.unsubscribe, { endpoint: endpoint });
        });
      })
      .then(function () {
        window.location.reload();
      })
      .catch(function (error) {
        disable.disabled = false;
        say(why(error, words.sayStopFailed));
      });
  });
})();
