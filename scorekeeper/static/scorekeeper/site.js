/* Small comforts on top of pages that work without JavaScript. */
(function () {
  "use strict";

  // New match: tapping a known player fills the first empty seat.
  document.addEventListener("click", function (event) {
    var chip = event.target.closest("[data-fill-seat]");
    if (!chip) return;
    var form = chip.closest("form");
    var inputs = form ? form.querySelectorAll(".seat input[type=text]") : [];
    for (var i = 0; i < inputs.length; i++) {
      if (!inputs[i].value.trim()) {
        inputs[i].value = chip.getAttribute("data-fill-seat");
        inputs[i].dispatchEvent(new Event("change", { bubbles: true }));
        event.preventDefault(); // filled here: the chip's submit (without JavaScript) not needed
        return;
      }
    }
  });

  // Scoreboard: keep the phone awake while a match is on the table.
  var lock = null;
  function keepAwake() {
    if (!document.querySelector("[data-keep-awake]") || !("wakeLock" in navigator)) return;
    if (lock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      lock.addEventListener("release", function () { lock = null; });
    }).catch(function () {});
  }
  // A notice at the top of the page's main element (made once, its words drawn by the page's
  // template): the notice with that id, said anew only when its words change.
  function notice(id, code, text) {
    var main = document.getElementById("page");
    if (!main || !text) return null;
    var shown = document.getElementById(id);
    if (!shown) {
      shown = document.createElement("p");
      shown.id = id;
      shown.className = "msg error";
      shown.setAttribute("role", "alert");
      main.insertBefore(shown, main.firstChild);
    }
    shown.setAttribute("data-message", code);
    if (shown.textContent !== text) shown.textContent = text;
    return shown;
  }

  // A request that never reached the site (no network, the server restarting): htmx would
  // say nothing, so the page says it. An answer the site gave, even an error, is drawn by
  // htmx itself (base.html's htmx-config swaps 4xx and 5xx too).
  function unreachable(event) {
    var shown = notice("connection-lost", "connection_lost",
      document.body.getAttribute("data-offline-message"));
    if (shown) shown.scrollIntoView({ block: "nearest" });
  }
  // Once a request gets through again (a tap, the live check), the notice has said its piece.
  function reached() {
    var shown = document.getElementById("connection-lost");
    if (shown) shown.remove();
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) reached();
  });

  // Live pages (scorekeeper/live.py): the element [data-live] asks its address, with the state
  // it was drawn from, every data-live-every ms while the tab is visible (never while hidden;
  // at once when it shows again). 204: nothing changed. 200: something did; the element gets
  // "scorekeeper:changed" (the entry page redraws itself through its tap queue and cancels the
  // event), otherwise it is drawn again in place (the same address with htmx gives the
  // element's partial; the morph swap keeps what the player opened open). 404 (or 410): what
  // the page follows is gone (a replaced watch link, a deleted match): the page stops asking;
  // the watch view says so over its figures, dimmed (body[data-live-gone-message]); another
  // page is drawn again, and its answer says why. Any other answer, or none (no network, a
  // timeout), says the score shown may be out of date (body[data-live-offline-message], else
  // data-offline-message) until a check gets through.
  var liveTimer = null;
  var liveAsking = false;
  var keepOpen = false;
  var LIVE_TIMEOUT_MS = 10000;

  function liveElement() { return document.querySelector("[data-live]"); }

  function liveSchedule(delay) {
    if (liveTimer) clearTimeout(liveTimer);
    liveTimer = null;
    var el = liveElement();
    if (!el || document.visibilityState !== "visible") return;
    if (delay === undefined) delay = parseInt(el.getAttribute("data-live-every"), 10) || 2000;
    liveTimer = setTimeout(liveCheck, delay);
  }

  function liveRedraw(el) {
    if (!window.htmx || !el.id) { window.location.reload(); return; }
    keepOpen = true;
    var done = function () { keepOpen = false; };
    window.htmx.ajax("GET", window.location.href, {
      source: el, target: "#" + el.id, swap: "morph:outerHTML"
    }).then(done, done);
  }

  function liveGone(el) {
    el.removeAttribute("data-live");
    var text = document.body.getAttribute("data-live-gone-message");
    if (!text) { liveRedraw(el); return; }
    reached();  // the site was reached: what it said is the news
    el.setAttribute("data-live-gone", "");
    notice("live-gone", "watch_link_gone", text);
  }

  function liveUnreachable() {
    if (document.getElementById("connection-lost")) return;  // a tap's "not sent" says more
    var body = document.body;
    notice("connection-lost", "connection_lost",
      body.getAttribute("data-live-offline-message") || body.getAttribute("data-offline-message"));
  }

  function liveCheck() {
    liveTimer = null;
    var el = liveElement();
    if (!el || liveAsking || document.visibilityState !== "visible") return;
    var state = el.getAttribute("data-live-state") || "";
    var url = el.getAttribute("data-live") + "?state=" + encodeURIComponent(state);
    var options = { credentials: "same-origin", cache: "no-store" };
    var timer = null;
    if (window.AbortController) {  // a check that hangs (a network gone quiet) fails in time
      var abort = new AbortController();
      options.signal = abort.signal;
      timer = setTimeout(function () { abort.abort(); }, LIVE_TIMEOUT_MS);
    }
    liveAsking = true;
    window.fetch(url, options).then(function (answer) {
      if (answer.status === 404 || answer.status === 410) { liveGone(el); return; }
      if (answer.status !== 200 && answer.status !== 204) { liveUnreachable(); return; }
      reached();
      if (answer.status !== 200) return;
      return answer.text().then(function (now) {
        if (!el.isConnected || now === el.getAttribute("data-live-state")) return;
        var changed = new CustomEvent("scorekeeper:changed", {
          bubbles: true, cancelable: true, detail: { state: now }
        });
        if (el.dispatchEvent(changed)) liveRedraw(el);
      });
    }).catch(liveUnreachable).then(function () {
      if (timer) clearTimeout(timer);
      liveAsking = false;
      liveSchedule();
    });
  }

  // A redraw by the live check keeps the <details> the player opened (a deal's breakdown).
  document.addEventListener("DOMContentLoaded", function () {
    if (window.Idiomorph && window.Idiomorph.defaults) {
      // chained: a page's own script may keep other attributes (entry.js: the pad's fold)
      var before = window.Idiomorph.defaults.callbacks.beforeAttributeUpdated;
      window.Idiomorph.defaults.callbacks.beforeAttributeUpdated = function (name, node, mutation) {
        if (keepOpen && name === "open" && node.tagName === "DETAILS") return false;
        return before ? before(name, node, mutation) : undefined;
      };
    }
    liveSchedule();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") liveSchedule(0);
    else liveSchedule();
  });
  // A page drawn anew (a tap, a redraw) carries its own state: ask again from then on.
  document.addEventListener("htmx:afterSettle", function () {
    if (!liveTimer && !liveAsking) liveSchedule();
  });

  // A message is shown once, for the action that made it: when a part of the page is drawn
  // again with messages of its own (a deal deleted on the scoreboard), those of the page it
  // was loaded with (a deal corrected before) are no longer news, and go.
  document.addEventListener("htmx:afterSettle", function () {
    var drawn = document.querySelectorAll("#page .messages");
    var old = document.querySelectorAll("#page > .messages");
    if (drawn.length <= old.length) return;  // no part drawn with messages of its own
    for (var i = 0; i < old.length; i++) old[i].remove();
  });

  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);
})();
