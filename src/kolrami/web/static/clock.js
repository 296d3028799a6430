/* Kolrami's round clock: counts the round's time down on the wall clock and on the players'
   phones, with no library. The page carries the time left when it was made; the clock runs
   on from there by the browser's own monotonic clock, and asks the server every few seconds
   (clock.json) so that a pause, a resume or added minutes reach every screen. When the
   network drops it keeps counting and says so. */
(function () {
  "use strict";
  if (window.kolramiClock) { return; }
  window.kolramiClock = true;
  var POLL_MS = 5000;

  function shown(seconds) {
    var whole = Math.ceil(seconds - 0.001);
    if (whole < 0) { whole = 0; }
    var m = Math.floor(whole / 60), s = whole % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }

  function Clock(el) {
    this.el = el;
    this.digits = el.querySelector("[data-digits]");
    this.note = el.querySelector("[data-note]");
    this.label = el.querySelector("[data-round]");
    this.set({
      status: el.getAttribute("data-status"),
      remaining_seconds: parseFloat(el.getAttribute("data-remaining")) || 0,
      ends_local: el.getAttribute("data-ends") || "",
      round: el.getAttribute("data-round-number")
    });
  }

  Clock.prototype.set = function (d) {
    this.status = d.status;
    this.left = d.remaining_seconds || 0;
    this.ends = d.ends_local || "";
    this.round = d.round;
    this.since = performance.now();
  };

  Clock.prototype.remaining = function () {
    if (this.status !== "running") { return this.left; }
    return Math.max(0, this.left - (performance.now() - this.since) / 1000);
  };

  Clock.prototype.draw = function () {
    var left = this.remaining();
    var status = this.status === "running" && left <= 0 ? "over" : this.status;
    if (this.digits) { this.digits.textContent = shown(left); }
    if (this.label && this.round) { this.label.textContent = "Round " + this.round; }
    if (this.note) {
      var text = {
        "not started": "not started yet",
        "paused": "paused",
        "over": "time is up: finish the turn",
        "not paired": "no round paired yet"
      }[status];
      this.note.textContent = text || ("ends " + this.ends);
    }
    this.el.setAttribute("data-state", status);
  };

  Clock.prototype.poll = function () {
    var self = this, url = this.el.getAttribute("data-clock");
    if (!url || !window.fetch) { return; }
    fetch(url, { cache: "no-store", headers: { "Accept": "application/json" } })
      .then(function (r) { if (!r.ok) { throw new Error(r.status); } return r.json(); })
      .then(function (d) {
        if (d.status !== "not paired") { self.set(d); }
        self.el.removeAttribute("data-offline");
        self.draw();
      })
      .catch(function () { self.el.setAttribute("data-offline", "true"); });
  };

  function start() {
    var els = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < els.length; i++) {
      (function (c) {
        c.draw();
        setInterval(function () { c.draw(); }, 250);
        setInterval(function () { c.poll(); }, POLL_MS);
      })(new Clock(els[i]));
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
