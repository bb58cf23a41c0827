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

  // The parts of the page that do not change from one tap to the next (the pad's keys, the
  // trump's row, the contracts: {% keep %}, templatetags/keep_tags.py) are sent once: a tap
  // says which parts this page holds (kept: NAME:DIGEST,…) and the answer leaves out those
  // that are the same, marked data-kept. The morph swap keeps them as they are for such an
  // answer (Idiomorph's beforeNodeMorphed: false leaves a node untouched). Without the
  // morph, nothing is announced and every answer brings every part.
  var keeping = false;
  function keepParts() {
    if (keeping) return true;
    var morph = window.Idiomorph;
    if (!morph || !morph.defaults || !morph.defaults.callbacks) return false;
    var before = morph.defaults.callbacks.beforeNodeMorphed;
    morph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
      if (oldNode.nodeType === 1 && newNode.nodeType === 1 &&
          newNode.hasAttribute("data-kept") &&
          oldNode.getAttribute("data-keep-of") === newNode.getAttribute("data-keep-of")) return false;
      return before ? before(oldNode, newNode) : undefined;
    };
    keeping = true;
    return true;
  }

  function heldParts() {
    var parts = document.querySelectorAll("#entry [data-keep][data-keep-of]:not([data-kept])");
    var out = [];
    for (var i = 0; i < parts.length; i++) {
      out.push(parts[i].getAttribute("data-keep") + ":" + parts[i].getAttribute("data-keep-of"));
    }
    return out.join(",");
  }

  function pump() {
    var form = entryForm();
    if (busy && Date.now() - since > 20000) busy = false; // an answer that never came
    if (busy || !queue.length || !form || !window.htmx) { mark(); return; }
    busy = true;
    since = Date.now();
    sentFrom = form;
    mark();
    var values = queue.shift();
    var label = values.label;
    delete values.label;  // the list's, not the site's
    sending = { action: values.action, label: label };
    if (keepParts()) values.kept = heldParts();
    window.htmx.ajax("POST", form.getAttribute("action").split("#")[0], {
      source: form,
      target: "#entry",
      swap: "morph:outerHTML",
      values: values
    }).catch(function () {
      // htmx rejects the promise when the site cannot be reached; its afterRequest has already
      // ended the tap and site.js says so on the page (connection_lost).
    });
  }

  // Taps that were not entered stay listed until the player dismisses the list (issue 24):
  // the tap whose request never reached the site or got an error, the taps queued behind it
  // or behind an answer that left no pad (logged out, the deal saved meanwhile), and a tap
  // the site refused (its answer's red banner, which the next tap's answer takes away). The
  // list (#taps-lost, outside #entry, so no redraw touches it) is kept in the tab's session
  // storage: a page drawn anew (a redirect, a reload) shows it again. Its words come from the
  // page (body[data-lost-taps-message], [data-refused-tap-message], [data-dismiss-label]).
  var LOST_KEY = "scorekeeper:lost-taps";
  var LOST_MAX = 30;
  var sending = null;  // the tap on its way: its action and its key's label

  // the list: read from the tab's storage once, written back at each change (where storage
  // is refused, a private tab, it lives as long as the page)
  var lost = [];
  try { lost = JSON.parse(window.sessionStorage.getItem(LOST_KEY) || "[]") || []; }
  catch (e) { lost = []; }
  function lostSave() {
    lost = lost.slice(-LOST_MAX);
    try {
      if (lost.length) window.sessionStorage.setItem(LOST_KEY, JSON.stringify(lost));
      else window.sessionStorage.removeItem(LOST_KEY);
    } catch (e) { /* storage refused: the list in memory stays */ }
  }

  function lostDraw() {
    var list = lost;
    var box = document.getElementById("taps-lost");
    var body = document.body;
    if (!list.length) { if (box) box.remove(); return; }
    var main = document.getElementById("page") || document.querySelector("main");
    if (!main) return;
    if (!box) {
      box = document.createElement("div");
      box.id = "taps-lost";
      box.className = "msg error taps-lost";
      box.setAttribute("role", "alert");
      box.setAttribute("data-message", "taps_lost");
      main.insertBefore(box, main.firstChild);
    }
    box.textContent = "";
    var intro = document.createElement("p");
    intro.textContent = body.getAttribute("data-lost-taps-message") || "";
    box.appendChild(intro);
    var items = document.createElement("ul");
    for (var i = 0; i < list.length; i++) {
      var item = document.createElement("li");
      item.setAttribute("data-lost-tap", list[i].action || "");
      item.textContent = list[i].label + (list[i].why ? " \u2014 " + list[i].why : "");
      items.appendChild(item);
    }
    box.appendChild(items);
    var dismiss = document.createElement("button");
    dismiss.type = "button";
    dismiss.className = "button small";
    dismiss.setAttribute("data-dismiss-lost", "");
    dismiss.textContent = body.getAttribute("data-dismiss-label") || "OK";
    box.appendChild(dismiss);
  }

  function lose(taps, why) {
    var added = false;
    for (var i = 0; i < taps.length; i++) {
      if (!taps[i] || !taps[i].action) continue;  // a redraw is no tap
      lost.push({ action: taps[i].action, label: taps[i].label || taps[i].action, why: why || "" });
      added = true;
    }
    if (!added) return;
    lostSave();
    lostDraw();
    var box = document.getElementById("taps-lost");
    if (box && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("click", function (event) {
    if (!event.target.closest || !event.target.closest("[data-dismiss-lost]")) return;
    lost = [];
    lostSave();
    lostDraw();
  });
  document.addEventListener("DOMContentLoaded", lostDraw);

  // The label a key shows, for the list: what the player read on it.
  function keyLabel(button) {
    var text = button.getAttribute("aria-label") || button.textContent || button.title || "";
    text = text.replace(/\s+/g, " ").trim();
    return text.length > 40 ? text.slice(0, 39) + "\u2026" : text;
  }

  // The queue's own requests end here: htmx fires afterRequest on the form they were sent
  // from, or on what is left of the page when the answer replaced that form.
  // An answer that replaced the page's main element (an error page: logged out, a refused
  // token) leaves the form out of the page: htmx then fires afterRequest on what is left
  // (the body), so the queue knows its request by its XMLHttpRequest, not by the element.
  var sentXhr = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (sentFrom && event.detail && event.detail.elt === sentFrom) sentXhr = event.detail.xhr;
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!sentFrom || !event.detail) return;
    if (event.detail.elt !== sentFrom && !(sentXhr && event.detail.xhr === sentXhr)) return;
    sentFrom = null;
    sentXhr = null;
    busy = false;
    var tap = sending;
    sending = null;
    var xhr = event.detail.xhr;
    var redirected = xhr && xhr.getResponseHeader("HX-Redirect");
    if (!event.detail.successful) lose([tap]);  // not sent, or an error page: not entered
    else if (tap && tap.action) {
      // refused by the site: the answer's banner says why (the next answer takes it away)
      var refusal = document.querySelector("#entry .banner.bad[role=alert][data-message]");
      if (refusal && refusal.getAttribute("data-message") !== "entry_unreadable") {
        lose([tap], (document.body.getAttribute("data-refused-tap-message") || "") + " " +
          refusal.textContent.replace(/\s+/g, " ").trim());
      }
    }
    // an error, a redirect, or a page without a pad: the taps still queued were meant for a
    // pad that is gone, and are not sent
    if (redirected || !event.detail.successful || !entryForm()) {
      // (a Save behind it is no tap left to enter: the deal it would save is gone, or saved)
      lose(queue.filter(function (t) { return t.action !== "save"; }));
      queue = [];
    }
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
    var values = { action: button.value, tap: tapId(), label: keyLabel(button) };
    if (question && button.hasAttribute("data-ask-confirms")) values.confirm = "yes";
    queue.push(values);
    pump();
  }, true);

  // The keyboard (a desk's rummy pad): each key press goes into the same queue as a click.
  // Cards pad: a rank then a suit letter is that card ("7h", "th" or "10h" the ten, "2s" the
  // two of spades, natural or wild as it stands); a rank alone adds it in the chosen suit
  // (sent after the next key or a moment later); a suit letter alone chooses the suit; "*" the
  // joker, "." is "…" (the next rank ends the run), "i" in hand, Enter a new meld, Backspace
  // takes back. Number keys: digits, Backspace, Enter or Tab the other number.
  var rankOf = { a: "A", t: "10", j: "J", q: "Q", k: "K" };
  var pending = "";
  var pendingTimer = null;
  function send(action) {
    var key = document.querySelector('#entry button[name=action][value="' + action + '"]');
    queue.push({ action: action, tap: tapId(), label: key ? keyLabel(key) : action });
    pump();
  }
  function flush() {
    if (pendingTimer) { clearTimeout(pendingTimer); pendingTimer = null; }
    var rank = pending;
    pending = "";
    if (rank && rank !== "1") send("rank:" + rank);
  }
  document.addEventListener("keydown", function (event) {
    var entry = document.getElementById("entry");
    if (!entry || !entry.classList.contains("rummy") || !window.htmx || !entryForm()) return;
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    var where = event.target && event.target.tagName;
    if (where === "INPUT" || where === "TEXTAREA" || where === "SELECT") return;
    var key = event.key;
    var lower = key.length === 1 ? key.toLowerCase() : key;
    if (document.getElementById("pad-digit-0")) {  // the number keys
      if (/^[0-9]$/.test(key)) send("digit:" + key);
      else if (key === "Backspace") send("back");
      else if ((key === "-" || key === "+") && document.getElementById("pad-sign")) send("sign");
      else if (key === "Enter" || key === "Tab") send("next_field");
      else return;
      event.preventDefault();
      return;
    }
    if (!document.getElementById("pad-rank-A")) return;  // the keys are not drawn yet
    var rank = rankOf[lower] || (/^[2-9]$/.test(key) ? key : "");
    if (key === "0" && pending === "1") rank = "10";
    else if (key === "1") rank = "1";
    if (rank) {
      if (pending && rank !== "10") flush();
      pending = rank;
      if (pendingTimer) clearTimeout(pendingTimer);
      pendingTimer = setTimeout(flush, 1200);
    } else if ("shdc".indexOf(lower) >= 0 && lower.length === 1) {
      var suit = lower.toUpperCase();
      if (pendingTimer) { clearTimeout(pendingTimer); pendingTimer = null; }
      if (pending && pending !== "1") send("card:" + pending + suit);
      else send("suit:" + suit);
      pending = "";
    } else if (key === "*" || lower === "x") { flush(); send("joker"); }
    else if (key === ".") { flush(); send("thru"); }
    else if (lower === "i") { flush(); send("target:hand"); }
    else if (key === "Enter") { flush(); send("new_meld"); }
    else if (key === "Backspace") {
      if (pending) { pending = ""; if (pendingTimer) clearTimeout(pendingTimer); pendingTimer = null; }
      else send("back");
    } else if (key === " ") { flush(); }
    else return;
    event.preventDefault();
  });

  // Every key keeps its meaning while the page is redrawn. The morph swap keeps an element and
  // rewrites it to match the answer: without an id of its own, the key under a finger (or held
  // by a test between finding it and clicking it) could become another one, "in hand" turned
  // "meld 1" when a meld was added above it, and the tap went there (issue 24: a card in a new
  // meld). Each key of the entry gets an id naming its action and its place among the keys of
  // that action, in what is drawn and in every answer before it is morphed in (the entry-keys
  // extension, listed before the morph one on the form): Idiomorph matches a key only with the
  // key of the same id, so a key whose action changed is a new element. The parts kept as they
  // are ({% keep %}) are left out: an answer leaves their keys out. #taps-here (where a page
  // without JavaScript opens) moves from meld to meld: not an identity, so it is taken away.
  var KEY_ID = "data-key-id";
  function labelKeys(root) {
    if (!root || !root.querySelectorAll) return;
    var anchor = root.querySelector("#taps-here");
    if (anchor) anchor.removeAttribute("id");
    var count = {};
    var keys = root.querySelectorAll("button[name=action]");
    for (var i = 0; i < keys.length; i++) {
      var key = keys[i];
      if (key.closest("[data-keep]") || (key.id && !key.hasAttribute(KEY_ID))) continue;
      var n = count[key.value] || 0;
      count[key.value] = n + 1;
      key.id = "key:" + key.value + ":" + n;
      key.setAttribute(KEY_ID, "");
    }
  }
  function defineKeys() {
    if (!window.htmx || defineKeys.done) return;
    defineKeys.done = true;
    window.htmx.defineExtension("entry-keys", {
      handleSwap: function (style, target, fragment) {
        labelKeys(fragment);  // the page's own keys are labelled once drawn (below)
        return false;  // the morph extension swaps
      }
    });
    labelKeys(document.getElementById("entry"));
  }
  defineKeys();
  document.addEventListener("DOMContentLoaded", defineKeys);

  // What each pad key will enter when that is not its own card into the meld (a run filled
  // in, a new meld, a suit key over a set: issue 24), as the answer says it on #entry
  // (data-key-previews, a JSON object by action): set on the keys as data-preview, which the
  // stylesheet shows. A pad kept as it was by the morph swap ({% keep %}) is not redrawn, so
  // its keys are given the answer's previews here.
  function showPreviews() {
    var entry = document.getElementById("entry");
    if (!entry || !entry.hasAttribute("data-key-previews")) return;
    var previews = {};
    try { previews = JSON.parse(entry.getAttribute("data-key-previews") || "{}") || {}; }
    catch (e) { previews = {}; }
    var keys = entry.querySelectorAll(".pad-grid button[name=action]");
    for (var i = 0; i < keys.length; i++) {
      var preview = previews[keys[i].value];
      if (preview) {
        if (keys[i].getAttribute("data-preview") !== preview) keys[i].setAttribute("data-preview", preview);
      } else if (keys[i].hasAttribute("data-preview")) keys[i].removeAttribute("data-preview");
    }
  }
  document.addEventListener("htmx:afterSwap", showPreviews);
  document.addEventListener("DOMContentLoaded", showPreviews);

  // The pad folded (its <details> closed) stays folded when a tap's answer is morphed in, and
  // open stays open: the answer always draws it open, and the morph may draw it anew (an
  // element made empty, then given the answer's attributes), which must open it then.
  var padFolded = false;
  document.addEventListener("toggle", function (event) {
    var pad = event.target;
    if (pad && pad.tagName === "DETAILS" && pad.classList.contains("pad") && pad.isConnected) {
      padFolded = !pad.open;
    }
  }, true);
  (function keepFold() {
    var morph = window.Idiomorph;
    if (!morph || !morph.defaults || !morph.defaults.callbacks) {
      document.addEventListener("DOMContentLoaded", function () {
        if (window.Idiomorph && !keepFold.done) keepFold();
      });
      return;
    }
    keepFold.done = true;
    var before = morph.defaults.callbacks.beforeAttributeUpdated;
    morph.defaults.callbacks.beforeAttributeUpdated = function (name, node, mutation) {
      if (name === "open" && node.tagName === "DETAILS" && node.classList.contains("pad")) {
        return (mutation === "remove") === padFolded ? undefined : false;
      }
      return before ? before(name, node, mutation) : undefined;
    };
  })();

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
    // what is in sight: below the sticky bar, above the pad (both stick to the screen)
    var bar = entry.querySelector(".entry-bar");
    var pad = entry.querySelector(".pad");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var bottom = pad ? pad.getBoundingClientRect().top : window.innerHeight;
    if (bottom - top < 40) { top = 0; bottom = window.innerHeight; }  // a pad as tall as the screen
    if (box.top >= top && box.bottom <= bottom) return;
    // the meld in the middle of what is in sight (the screen's middle was under the pad:
    // issue 24), or its top there when it is taller; at once, not smoothly: a page still
    // gliding moves the keys under the next tap (a tap on Save pressed at one place and let
    // go at another was no tap at all)
    var by = box.height > bottom - top ? box.top - top : (box.top + box.bottom) / 2 - (top + bottom) / 2;
    window.scrollBy({ top: by, behavior: "instant" });
  });
})();
