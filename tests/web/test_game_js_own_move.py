"""One redraw per own move (issue 27): static/js/game.js lets a stream event ask for the page
only when the page is behind it. The script runs in Node against a small stand-in of the page:
the events htmx fires are dispatched to it as the browser would, and what it asks is recorded."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import playwright
import pytest

GAME_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "game.js"

HARNESS = r"""
const fs = require("fs"), vm = require("vm");
const listeners = {};
const poller = { id: "poller", dataset: { version: "5" }, closest: () => null };
const button = { id: "take", closest: () => null };
const polls = [];
const timers = [];
const document = {
  addEventListener: (name, fn) => (listeners[name] = listeners[name] || []).push(fn),
  getElementById: (id) => (id === "poller" ? poller : null),
  querySelectorAll: () => [], querySelector: () => null, contains: () => true,
  activeElement: null, body: {},
};
const window = {
  setTimeout: (fn) => timers.push(fn), clearTimeout: () => {},
  htmx: { trigger: (elt, name) => polls.push(name) },
  getComputedStyle: () => ({}),
};
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), { document, window });

function fire(name, detail) {
  let prevented = false;
  const event = { detail, preventDefault: () => (prevented = true) };
  (listeners[name] || []).forEach((fn) => fn(event));
  return prevented;
}
function streamEvent(version) {
  return { type: "sse:move", detail: { data: JSON.stringify({ version: version }) } };
}
function pollerAsks(version) {
  const requestConfig = { triggeringEvent: streamEvent(version) };
  return !fire("htmx:beforeRequest", { elt: poller, requestConfig: requestConfig });
}
function runTimers() { while (timers.length) timers.shift()(); }

const out = {};
out.known = pollerAsks(5);                    // the page shows this version already
out.newer = pollerAsks(6);                    // a bot's move: the page is behind
// The player's own move: the event arrives while the answer to their POST is on its way.
fire("htmx:beforeSend", { elt: button });
out.duringOwnMove = pollerAsks(6);
poller.dataset.version = "6";                 // the answer swapped the panel and the poller
fire("htmx:afterRequest", { elt: button });
runTimers();
out.pollsAfterOwnMove = polls.length;
// A move of someone else lands while the player's request is out: asked once it is back.
fire("htmx:beforeSend", { elt: button });
out.duringOtherMove = pollerAsks(8);
poller.dataset.version = "7";
fire("htmx:afterRequest", { elt: button });
runTimers();
out.pollsAfterOtherMove = polls.length;
console.log(JSON.stringify(out));
"""


@pytest.fixture(scope="module")
def outcome():
    # Playwright (a test dependency) ships its own Node.js: no system package needed.
    node = shutil.which("node") or str(Path(playwright.__file__).parent / "driver" / "node")
    done = subprocess.run(
        [node, "-e", HARNESS, str(GAME_JS)], capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_it_ignores_a_stream_event_whose_version_the_page_shows(outcome):
    assert outcome["known"] is False
    assert outcome["newer"] is True


def test_it_draws_the_page_once_for_the_players_own_move(outcome):
    assert outcome["duringOwnMove"] is False
    assert outcome["pollsAfterOwnMove"] == 0


def test_it_catches_up_on_an_event_that_came_during_a_request(outcome):
    assert outcome["duringOtherMove"] is False
    assert outcome["pollsAfterOtherMove"] == 1
