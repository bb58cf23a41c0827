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
  document.addEventListener("visibilitychange", keepAwake);
  document.addEventListener("DOMContentLoaded", keepAwake);
  document.addEventListener("htmx:afterSettle", keepAwake);
})();
