// The game page for keyboard and screen-reader players (no inline script: loaded by src).
// htmx replaces parts of the page after every step and every poll; this file
// - puts the focus on the action panel when the swap took it away (the pressed button is gone),
//   so the next Tab reaches the new choices, without scrolling the page, and never moves a
//   focus that is still in place (someone typing in the chat keeps their cursor);
// - says what changed in the live region #announcer, which stays on the page across swaps:
//   the new lines of the game log, then the status line ("Anna takes Mason. Your turn.").
// Every word comes from the page the server drew, so it speaks the page's language.
(function () {
  "use strict";

  function version() {
    var poller = document.getElementById("poller");
    return poller ? poller.dataset.version : null;
  }

  function squash(value) {
    return value.replace(/\s+/g, " ").trim();
  }

  // Each line of the log: its whole text with its number ("2.1"), which tells lines apart,
  // and the words to say (without the number).
  function logLines() {
    var turns = document.querySelectorAll("#log .log-turn");
    var lines = [];
    Array.prototype.forEach.call(turns, function (turn, index) {
      turn.querySelectorAll(".log-lines li").forEach(function (li) {
        var words = li.querySelector(".log-text");
        lines.push({ key: squash(li.textContent), say: squash((words || li).textContent), turn: index });
      });
    });
    return lines;
  }

  function text(selector) {
    var element = document.querySelector(selector);
    return element ? squash(element.textContent) : "";
  }

  // The log lines that follow the last line shown before the swap (the log on the game page
  // keeps only the last turns, so lines are matched by their text, numbers included). When
  // that line has scrolled out of the log, the newest turn's lines.
  function newLines(before, after) {
    if (!before.length) return after;
    var last = before[before.length - 1].key;
    var keys = after.map(function (line) { return line.key; });
    var at = keys.lastIndexOf(last);
    if (at !== -1) return after.slice(at + 1);
    var newest = after.length ? after[after.length - 1].turn : -1;
    return after.filter(function (line) { return line.turn === newest; });
  }

  function announce(message) {
    var region = document.getElementById("announcer");
    if (!region || !message) return;
    // A changed text is spoken; the same text twice in a row is spoken again after a reset.
    region.textContent = "";
    window.setTimeout(function () { region.textContent = message; }, 50);
  }

  function focusPanel() {
    var active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    var panel = document.getElementById("panel");
    var visible = panel && panel.getClientRects().length > 0;
    var target = visible ? panel : document.getElementById("status");
    // Without scrolling: on a phone the panel sits above the board, and a player who tapped a
    // card or brick further down would be thrown back to the top after every step. The next
    // Tab still starts in the panel (and brings it into view then).
    if (target) target.focus({ preventScroll: true });
  }

  var seenVersion = version();
  var seenLines = logLines();

  // One update swaps several parts (the panel, then the board, log and status out of band),
  // each settling on its own: the page is read once the last of them has settled.
  var timer = null;
  document.addEventListener("htmx:afterSettle", function (event) {
    // The player's notepad (loaded and saved on its own) is not an update of the game.
    var settled = event.target;
    if (settled && settled.closest && settled.closest("#notes")) return;
    if (timer !== null) window.clearTimeout(timer);
    timer = window.setTimeout(update, 60);
  });

  function update() {
    timer = null;
    if (!document.getElementById("game")) return;
    var now = version();
    if (now !== seenVersion) {
      var lines = newLines(seenLines, logLines()).map(function (line) { return line.say; });
      // Whose turn it is now, or the game-over heading.
      var parts = lines.concat([text("#status .turn-who") || text("#status h1")]);
      if (document.querySelector("#status.status-mine")) parts.push(text("#panel .prompt"));
      announce(parts.filter(Boolean).join(" "));
    }
    seenVersion = now;
    seenLines = logLines();
    focusPanel();
  }
})();

// Live updates (templates/games/game.html, #live): htmx's SSE extension holds the game's event
// stream, and each event triggers the poller at once. While the stream is open the 5-second
// poll stands down (it still runs once a minute, a safety net); when the stream fails the poll
// goes on as before, and when it opens again the poller asks at once for what it missed.
(function () {
  "use strict";
  var live = false;
  var wasDown = false;
  var skipped = 0;

  function poll() {
    var poller = document.getElementById("poller");
    if (poller && window.htmx) window.htmx.trigger(poller, "refresh");
  }

  document.addEventListener("htmx:sseOpen", function () {
    live = true;
    if (wasDown) poll();
    wasDown = false;
  });
  document.addEventListener("htmx:sseError", function () {
    live = false;
    wasDown = true;
  });
  // One redraw per own move: the mover's own event often arrives while the answer to their
  // move is still on its way (or just swapped in). An event whose version the page already
  // shows asks for nothing; one that comes while another request of the page is in flight
  // waits for it, then asks only if the page is still behind.
  var inFlight = 0;
  var waiting = null;

  function shown() {
    var poller = document.getElementById("poller");
    return poller ? parseInt(poller.dataset.version, 10) : NaN;
  }

  function eventVersion(triggering) {
    var message = triggering && triggering.detail;
    if (!message || typeof message.data !== "string") return NaN;
    try {
      return parseInt(JSON.parse(message.data).version, 10);
    } catch (error) {
      return NaN;
    }
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail || {};
    if (!detail.elt || detail.elt.id !== "poller") return;
    var triggering = detail.requestConfig && detail.requestConfig.triggeringEvent;
    if (triggering && triggering.type && triggering.type.indexOf("sse:") === 0) {
      var version = eventVersion(triggering);
      if (version <= shown()) {
        event.preventDefault();
      } else if (inFlight > 0 && !isNaN(version)) {
        waiting = Math.max(waiting || 0, version);
        event.preventDefault();
      }
      return;
    }
    if (!live || triggering) return; // an event, not the timer
    skipped += 1;
    if (skipped % 12 !== 0) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id !== "poller" && !(elt.closest && elt.closest("#notes"))) inFlight += 1;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id === "poller" || (elt.closest && elt.closest("#notes"))) return;
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight > 0 || waiting === null) return;
    var version = waiting;
    waiting = null;
    // After the answer has been swapped in: is the page still behind the event?
    window.setTimeout(function () {
      if (!(version <= shown())) poll();
    }, 100);
  });

  // "Hide passes and forced steps" in the log: the checkbox works by CSS alone and htmx keeps
  // it across swaps (hx-preserve); this remembers the choice for the next visit.
  var HIDE_MINOR = "firenze.log.hideMinor";
  function remembered() {
    try { return window.localStorage.getItem(HIDE_MINOR) === "1"; } catch (e) { return false; }
  }
  var hideMinor = document.getElementById("log-hide-minor");
  if (hideMinor) hideMinor.checked = remembered();
  document.addEventListener("change", function (event) {
    if (!event.target || event.target.id !== "log-hide-minor") return;
    try {
      window.localStorage.setItem(HIDE_MINOR, event.target.checked ? "1" : "0");
    } catch (e) { /* storage refused: the choice lasts as long as the page */ }
  });
})();
