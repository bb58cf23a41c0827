/* The score sheet's Print button (templates/exports/sheet.html): shown only when a script
   can print, in place of the note that says to use the browser's Print (what a page without
   JavaScript keeps). */
(function () {
  "use strict";
  var buttons = document.querySelectorAll("[data-print]");
  if (!buttons.length || typeof window.print !== "function") return;
  var notes = document.querySelectorAll("[data-print-note]");
  for (var n = 0; n < notes.length; n++) notes[n].hidden = true;
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].hidden = false;
    buttons[i].addEventListener("click", function () { window.print(); });
  }
})();
