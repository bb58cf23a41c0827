/* The scoreboard: a deal's breakdown is loaded when its row is opened, and the score
   progression when its fold is. Nothing depends on this file: without JavaScript, an open row
   shows a link to the deal's breakdown on a page of its own (/matches/<id>/deals/<n>/), the
   fold a link to the chart's (/matches/<id>/chart/).

   Each row's .breakdown-body says where its breakdown is (data-breakdown-url) and which it is
   (data-breakdown-of: the deal, its score and the names, digested). Opening a row loads it
   once, in place; the answer carries data-breakdown (the deal's number). When the live check
   redraws the scoreboard (site.js, a morph swap that keeps open rows open), a breakdown
   already loaded stays as it is while its deal stays the same; a row left open whose deal
   changed loads its breakdown again. */
(function () {
  "use strict";

  function load(row) {
    var body = row.querySelector(".breakdown-body[data-breakdown-url]");
    if (!body || body.hasAttribute("data-breakdown") || body.hasAttribute("data-loading") ||
        !window.htmx) return;
    body.setAttribute("data-loading", "");
    window.htmx.ajax("GET", body.getAttribute("data-breakdown-url"), {
      source: body, target: body, swap: "outerHTML"
    }).catch(function () {
      body.removeAttribute("data-loading");  // no connection: the link is still there
    });
  }

  function loadOpen() {
    var rows = document.querySelectorAll(
      "#scoreboard details.deal[open], #scoreboard details.chart-box[open]");
    for (var i = 0; i < rows.length; i++) load(rows[i]);
  }

  // toggle does not bubble: listen while it goes down
  document.addEventListener("toggle", function (event) {
    var row = event.target;
    if (row && row.matches && row.matches("details.deal, details.chart-box") && row.open) load(row);
  }, true);

  document.addEventListener("htmx:afterSettle", loadOpen);

  // A deal deleted (or a change undone, contracts swapped) from the bottom of a long
  // scoreboard: its answer says so at the top, with Undo, out of view (issue 24). The page is
  // taken to its top, at once, when a form of the scoreboard posted and the answer has a
  // message; a live redraw (a GET) never moves it.
  document.addEventListener("htmx:afterSettle", function (event) {
    var detail = event.detail || {};
    var config = detail.requestConfig || {};
    var board = document.getElementById("scoreboard");
    if (!board || String(config.verb).toLowerCase() !== "post") return;
    if (!board.querySelector(".messages")) return;
    window.scrollTo({ top: 0, behavior: "instant" });
  });

  document.addEventListener("DOMContentLoaded", function () {
    var morph = window.Idiomorph;
    if (morph && morph.defaults && morph.defaults.callbacks) {
      var before = morph.defaults.callbacks.beforeNodeMorphed;
      morph.defaults.callbacks.beforeNodeMorphed = function (oldNode, newNode) {
        if (oldNode.nodeType === 1 && newNode.nodeType === 1 &&
            oldNode.hasAttribute("data-breakdown") && newNode.hasAttribute("data-breakdown-of") &&
            oldNode.getAttribute("data-breakdown-of") === newNode.getAttribute("data-breakdown-of")) {
          return false;
        }
        return before ? before(oldNode, newNode) : undefined;
      };
    }
    loadOpen();
  });
})();
