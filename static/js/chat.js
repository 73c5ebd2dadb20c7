// Table talk on the game page (templates/games/_chat.html). Loaded on every page with defer;
// does nothing where there is no thread. No inline scripts: the site has a CSP.
//  - keeps the newest message in view (on load and after every htmx swap),
//  - empties the form once the server says the message was stored (HX-Trigger: chat-sent),
//  - Ctrl+Enter (Cmd+Enter on a Mac) sends.
(function () {
  "use strict";

  function scrollToNewest() {
    var list = document.querySelector("#chat-thread .chat-messages");
    if (list) {
      list.scrollTop = list.scrollHeight;
    }
  }

  document.addEventListener("DOMContentLoaded", scrollToNewest);
  document.addEventListener("htmx:afterSettle", scrollToNewest);

  document.addEventListener("chat-sent", function () {
    var form = document.getElementById("chat-form");
    if (form) {
      form.reset();
    }
  });

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!target || target.id !== "chat-text") {
      return;
    }
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (target.form && target.value.trim()) {
        target.form.requestSubmit();
      }
    }
  });
})();

// A push arrived for the game this tab shows (static/js/sw.js showed nothing because the tab is
// visible): refresh the game now instead of at the next poll.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) {
    return;
  }
  navigator.serviceWorker.addEventListener("message", function (event) {
    if (event.data && event.data.type === "firenze-push" && window.htmx) {
      window.htmx.trigger(document.body, "game-changed");
    }
  });
})();
