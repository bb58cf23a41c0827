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

  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);
})();
