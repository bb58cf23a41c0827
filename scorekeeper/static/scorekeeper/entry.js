/* Deal entry: one queue for every tap. Nothing depends on this file: every key is a plain
   submit button of the form, and without JavaScript the form posts as it is.

   With htmx, every tap on a key of #entry-form goes into one queue and is sent after the one
   before it has come back, with an id of its own (a tap sent twice is applied once), then the
   answer is swapped in place (the morph extension keeps the keys the same elements, so a key
   pressed while the page is redrawn still gets its tap). Each tap carries what the page drew
   (the draft, its version), read from the form when it is sent, so it always goes out with
   the latest screen. A key with data-ask asks first (confirm), and with data-ask-confirms
   sends confirm=yes once agreed. An answer that is an error (logged out, a refused token)
   empties the queue: those taps were not sent, and the page says so.

   Also: a short buzz when a key is tapped, where the phone allows it; the meld or field that
   taps go to is scrolled into view when it is out of sight; the form says data-busy while
   taps are on their way (tests and screenshots wait on it). The screen is kept awake by
   site.js (the page carries data-keep-awake). */
(function () {
  "use strict";
  var queue = [];
  var busy = false;
  var since = 0;

  var sentFrom = null;

  // The pad's form, when the page shows a pad (a page that became another, "deal saved
  // meanwhile" or "logged out", has none: taps queued for the pad are not sent there).
  function entryForm() {
    var form = document.getElementById("entry-form");
    if (!form || !document.getElementById("entry")) return null;
    return form.querySelector("input[name=deal]") ? form : null;
  }

  function mark() {
    var form = document.getElementById("entry-form");  // the pad's or not: busy is the queue's
    if (!form) return;
    if (busy || queue.length) form.setAttribute("data-busy", "");
    else form.removeAttribute("data-busy");
  }

  function tapId() {
    var bytes = new Uint8Array(12);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    var out = "";
    for (var i = 0; i < bytes.length; i++) out += ("0" + bytes[i].toString(16)).slice(-2);
    return out;
  }

  function pump() {
    var form = entryForm();
    if (busy && Date.now() - since > 20000) busy = false; // an answer that never came
    if (busy || !queue.length || !form || !window.htmx) { mark(); return; }
    busy = true;
    since = Date.now();
    sentFrom = form;
    mark();
    window.htmx.ajax("POST", form.getAttribute("action"), {
      source: form,
      target: "#entry",
      swap: "morph:outerHTML",
      values: queue.shift()
    }).catch(function () {
      // htmx rejects the promise when the site cannot be reached; its afterRequest has already
      // ended the tap and site.js says so on the page (connection_lost).
    });
  }

  // The queue's own requests end here: htmx fires afterRequest on the form they were sent
  // from, or on what is left of the page when the answer replaced that form.
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!sentFrom || !event.detail || event.detail.elt !== sentFrom) return;
    sentFrom = null;
    busy = false;
    var xhr = event.detail.xhr;
    var redirected = xhr && xhr.getResponseHeader("HX-Redirect");
    // an error, a redirect, or a page without a pad: the taps still queued were meant for a
    // pad that is gone, and are not sent
    if (redirected || !event.detail.successful || !entryForm()) queue = [];
    pump();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[name=action]");
    var form = button && button.form;
    if (!form || form.id !== "entry-form" || !window.htmx || button.disabled) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    var question = button.getAttribute("data-ask");
    if (question && !window.confirm(question)) return;
    if (navigator.vibrate && button.closest(".pad, .stepper-row, .ravage")) {
      try { navigator.vibrate(8); } catch (e) { /* not allowed: no matter */ }
    }
    var values = { action: button.value, tap: tapId() };
    if (question && button.hasAttribute("data-ask-confirms")) values.confirm = "yes";
    queue.push(values);
    pump();
  }, true);

  // Another phone changed the deal (site.js's live check): draw it again when no tap waits.
  // The event is cancelled: this page redraws itself, through the queue (a redraw never
  // crosses a tap; while taps are on their way, their answers bring the deal as it is).
  document.addEventListener("scorekeeper:changed", function (event) {
    if (!entryForm()) return;
    event.preventDefault();
    if (busy || queue.length) return;
    queue.push({ action: "" });
    pump();
  });

  document.addEventListener("htmx:afterSettle", function () {
    var entry = document.getElementById("entry");
    if (!entry || queue.length) return;
    var target = entry.querySelector(".emeld.target, .number-field.target");
    if (!target || !target.scrollIntoView) return;
    var box = target.getBoundingClientRect();
    var pad = entry.querySelector(".pad");
    var bottom = pad ? pad.getBoundingClientRect().top : window.innerHeight;
    if (box.bottom > bottom || box.top < 0) target.scrollIntoView({ block: "center", behavior: "smooth" });
  });
})();
