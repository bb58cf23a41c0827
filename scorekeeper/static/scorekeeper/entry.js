/* Deal entry niceties. Nothing depends on this file: every key is a plain submit button.
   - a short buzz when a pad key is tapped (where the phone allows it);
   - the meld or field that taps go to is scrolled into view after each swap.
   The screen is kept awake by site.js (the page carries data-keep-awake). */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest(".entry .pad .key, .entry .key.step");
    if (key && navigator.vibrate) {
      try { navigator.vibrate(8); } catch (e) { /* not allowed: no matter */ }
    }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var entry = document.getElementById("entry");
    if (!entry || !entry.contains(event.target) && event.target !== entry) return;
    var target = entry.querySelector(".emeld.target, .number-field.target");
    if (!target || !target.scrollIntoView) return;
    var box = target.getBoundingClientRect();
    var pad = entry.querySelector(".pad");
    var bottom = pad ? pad.getBoundingClientRect().top : window.innerHeight;
    if (box.bottom > bottom || box.top < 0) target.scrollIntoView({ block: "center", behavior: "smooth" });
  });
})();
