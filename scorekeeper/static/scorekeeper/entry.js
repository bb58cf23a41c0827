/* Deal entry niceties. Nothing depends on this file: every key is a plain submit button, and
   with htmx alone the keys (kept in place by the morph swap) queue their taps in order.
   What this adds:
   - taps made while a request is on its way are kept in order and sent one after the other,
     for every button (htmx alone would drop a queued tap whose button was redrawn);
   - a short buzz when a key is tapped, where the phone allows it;
   - the meld or field that taps go to is scrolled into view when it is out of sight.
   The screen is kept awake by site.js (the page carries data-keep-awake). */
(function () {
  "use strict";
  var busy = false;
  var since = 0;
  var pending = [];

  // The form says when taps are still on their way (tests and screenshots wait on it).
  function mark(form) {
    if (!form) return;
    if (busy || pending.length) form.setAttribute("data-busy", "");
    else form.removeAttribute("data-busy");
  }

  function entryForm(node) {
    var form = node && node.closest ? node.closest("#entry-form") : null;
    return form && document.getElementById("entry") ? form : null;
  }

  function send(form, action) {
    if (!window.htmx) return;
    busy = true;
    since = Date.now();
    mark(form);
    window.htmx.ajax("POST", form.getAttribute("action"), {
      source: form,
      target: "#entry",
      swap: "morph:outerHTML",
      values: { action: action }
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[name=action]");
    var form = entryForm(button);
    if (!form || !window.htmx) return;
    if (navigator.vibrate && button.closest(".pad, .stepper-row, .ravage")) {
      try { navigator.vibrate(8); } catch (e) { /* not allowed: no matter */ }
    }
    if (busy && Date.now() - since > 10000) busy = false; // a request that never came back
    if (!busy || button.hasAttribute("hx-confirm")) return;
    // A request is on its way: keep this tap and send it once the page is redrawn.
    event.preventDefault();
    event.stopImmediatePropagation();
    pending.push(button.value);
    mark(form);
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = entryForm(event.target);
    if (!form) return;
    busy = true;
    since = Date.now();
    mark(form);
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var form = document.getElementById("entry-form");
    if (!form || !(entryForm(event.target) || event.target === form)) return;
    busy = false;
    var redirected = event.detail && event.detail.xhr && event.detail.xhr.getResponseHeader("HX-Redirect");
    if (redirected) { pending = []; return; }
    if (pending.length) send(form, pending.shift());
    else mark(form);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var entry = document.getElementById("entry");
    if (!entry || pending.length) return;
    var target = entry.querySelector(".emeld.target, .number-field.target");
    if (!target || !target.scrollIntoView) return;
    var box = target.getBoundingClientRect();
    var pad = entry.querySelector(".pad");
    var bottom = pad ? pad.getBoundingClientRect().top : window.innerHeight;
    if (box.bottom > bottom || box.top < 0) target.scrollIntoView({ block: "center", behavior: "smooth" });
  });
})();
