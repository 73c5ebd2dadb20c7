/* Small behaviours of the site, in a file so that the Content-Security-Policy can forbid
   inline scripts and handlers. No framework: htmx does the page updates.
   - form[data-autosubmit]: submits itself once the page is loaded (the sign-in and unsubscribe
     links of emails, when the link is old enough to have been opened by a person).
   - input[data-select-on-focus]: selects its whole text when clicked (the invite link).
   - button[data-copy]: copies the named input's text. */
(function () {
  "use strict";

  // A game page restored by Back/Forward from the browser's memory shows an old position
  // whose buttons the server would refuse: load it afresh.
  // One shown again from the HTTP cache by Back/Forward (kept for 304s): ask the poll at once.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && document.getElementById("game")) {
      window.location.reload();
      return;
    }
    var poller = document.getElementById("poller");
    var navigation = performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    if (poller && window.htmx && navigation && navigation.type === "back_forward") {
      window.htmx.trigger(poller, "refresh");
    }
  });

  // Coming back to a game's tab: look for news at once instead of at the next poll.
  document.addEventListener("visibilitychange", function () {
    var poller = document.getElementById("poller");
    if (document.visibilityState === "visible" && poller && window.htmx) {
      window.htmx.trigger(poller, "refresh");
    }
  });

  // The browser's time zone: filled into the sign-up form, and kept in a cookie so that
  // visitors who are not signed in see times in their own zone too.
  var zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    zone = "";
  }
  if (zone && document.cookie.indexOf("tz=" + encodeURIComponent(zone)) === -1) {
    document.cookie = "tz=" + encodeURIComponent(zone) + "; path=/; max-age=31536000; samesite=lax";
  }

  function ready() {
    document.querySelectorAll("form[data-autosubmit]").forEach(function (form) {
      form.submit();
    });
    if (zone) {
      document.querySelectorAll('input[type="hidden"][name="time_zone"]').forEach(function (input) {
        if (!input.value) input.value = zone;
      });
    }
    // Copy buttons: <button data-copy="id-of-input" data-copied="Copied">.
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var field = document.getElementById(button.dataset.copy);
        if (!field) return;
        field.select();
        var label = button.textContent;
        var done = function () {
          button.textContent = button.dataset.copied || label;
          window.setTimeout(function () { button.textContent = label; }, 2000);
        };
        // Say so at once: a clipboard promise may wait on a permission prompt.
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(field.value).catch(function () {
            document.execCommand("copy");
          });
        } else {
          document.execCommand("copy");
        }
        done();
      });
    });
    // Read-only fields (the invite link) select themselves when focused.
    document.querySelectorAll("input[data-select-on-focus]").forEach(function (input) {
      input.addEventListener("focus", function () { input.select(); });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
