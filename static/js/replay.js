// Keyboard steps for the replay page: each key "clicks" the control link that carries it in
// data-key (htmx then fetches that position). No inline script: this file is loaded by src.
// After each step the new position is said in the live region #announcer (it stays on the
// page while htmx replaces #replay), and the focus goes back to the control that was used.
(function () {
  "use strict";
  var usedKey = null;

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var key = (event.shiftKey ? "Shift+" : "") + event.key;
    var link = document.querySelector('#replay [data-key="' + key + '"]');
    if (!link) return;
    event.preventDefault();
    link.click();
  });

  document.addEventListener("htmx:beforeRequest", function () {
    var active = document.activeElement;
    usedKey = active && active.dataset ? active.dataset.key || null : null;
  });

  function squash(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  document.addEventListener("htmx:afterSettle", function () {
    var replay = document.getElementById("replay");
    var region = document.getElementById("announcer");
    if (!replay || !region) return;
    var words = [squash(replay.querySelector(".turn-line")), squash(replay.querySelector(".this-step"))];
    region.textContent = words.filter(Boolean).join(" ");
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    // The same control again, or the first one still enabled at either end of the game.
    var control = (usedKey && replay.querySelector('a[data-key="' + usedKey + '"]')) ||
      replay.querySelector(".replay-controls a");
    if (control) control.focus();
  });
})();
