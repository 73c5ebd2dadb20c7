// Keyboard steps for the replay page: each key "clicks" the control link that carries it in
// data-key (htmx then fetches that position). No inline script: this file is loaded by src.
(function () {
  "use strict";
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
})();
