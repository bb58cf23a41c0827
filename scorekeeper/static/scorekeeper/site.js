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
  // A request that never reached the site (no network, the server restarting): htmx would
  // say nothing, so the page says it. An answer the site gave, even an error, is drawn by
  // htmx itself (base.html's htmx-config swaps 4xx and 5xx too).
  function unreachable(event) {
    var main = document.getElementById("page");
    var text = document.body.getAttribute("data-offline-message");
    if (!main || !text) return;
    var notice = document.getElementById("connection-lost");
    if (!notice) {
      notice = document.createElement("p");
      notice.id = "connection-lost";
      notice.className = "msg error";
      notice.setAttribute("role", "alert");
      notice.setAttribute("data-message", "connection_lost");
      main.insertBefore(notice, main.firstChild);
    }
    notice.textContent = text;
    notice.scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("htmx:sendError", unreachable);
  document.addEventListener("htmx:timeout", unreachable);
  // Once a request gets through again, the notice has said its piece.
  document.addEventListener("htmx:afterRequest", function (event) {
    var notice = document.getElementById("connection-lost");
    if (notice && event.detail && event.detail.xhr && event.detail.xhr.status) notice.remove();
  });

  // Live pages (scorekeeper/live.py): the element [data-live] asks its address, with the state
  // it was drawn from, every data-live-every ms while the tab is visible (never while hidden;
  // at once when it shows again). 204: nothing changed. 200: something did; the element gets
  // "scorekeeper:changed" (the entry page redraws itself through its tap queue and cancels the
  // event), otherwise it is drawn again in place (the same address with htmx gives the
  // element's partial; the morph swap keeps what the player opened open). 404: the address
  // leads nowhere now (a replaced watch link): the page stops asking; its next redraw or
  // reload says why.
  var liveTimer = null;
  var liveAsking = false;
  var keepOpen = false;

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

  function liveCheck() {
    liveTimer = null;
    var el = liveElement();
    if (!el || liveAsking || document.visibilityState !== "visible") return;
    var state = el.getAttribute("data-live-state") || "";
    var url = el.getAttribute("data-live") + "?state=" + encodeURIComponent(state);
    liveAsking = true;
    window.fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      if (answer.status === 404) { el.removeAttribute("data-live"); return; }
      if (answer.status !== 200) return;
      return answer.text().then(function (now) {
        if (!el.isConnected || now === el.getAttribute("data-live-state")) return;
        var changed = new CustomEvent("scorekeeper:changed", {
          bubbles: true, cancelable: true, detail: { state: now }
        });
        if (el.dispatchEvent(changed)) liveRedraw(el);
      });
    }).catch(function () { /* no connection: the next check tries again */ }).then(function () {
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
