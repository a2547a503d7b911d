/* Zoom for the bracket drawings (templates/tournaments/bracket.html): each flight's toolbar zooms
   its drawing out and in, fits it to the width of its box or shows it at its actual size; the
   drawing's box scrolls when the drawing is wider. Keyboard: with the drawing focused, + and -
   zoom, 0 is the actual size, f fits; Ctrl (or a trackpad's pinch) with the wheel zooms too.
   Without this script the drawing keeps its own size and its box scrolls. */
(function () {
  "use strict";
  var STEPS = [0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3];
  var READABLE = 0.8;

  function setUp(tools) {
    if (tools.getAttribute("data-ready")) return;
    tools.setAttribute("data-ready", "1");
    var box = document.getElementById(tools.getAttribute("data-for"));
    var svg = box && box.querySelector("svg");
    if (!svg) return;
    var natural = parseFloat(svg.getAttribute("width")) || svg.getBoundingClientRect().width;
    var out = tools.querySelector("output");
    var zoom = null; // null: fitted to the box's width

    function current() {
      return zoom === null ? box.clientWidth / natural : zoom;
    }
    function apply() {
      svg.style.minWidth = "0";
      if (zoom === null) {
        svg.style.width = "100%";
        svg.style.maxWidth = "100%";
      } else {
        svg.style.width = Math.round(natural * zoom) + "px";
        svg.style.maxWidth = "none";
      }
      if (out) out.textContent = Math.round(current() * 100) + "%";
    }
    function step(direction) {
      var now = current(), next = now;
      if (direction > 0) next = STEPS.find(function (s) { return s > now + 0.001; }) || STEPS[STEPS.length - 1];
      else next = STEPS.slice().reverse().find(function (s) { return s < now - 0.001; }) || STEPS[0];
      zoom = next;
      apply();
    }
    function act(what) {
      if (what === "in") step(1);
      else if (what === "out") step(-1);
      else if (what === "fit") { zoom = null; apply(); }
      else if (what === "actual") { zoom = 1; apply(); }
    }
    tools.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-zoom]");
      if (button) act(button.getAttribute("data-zoom"));
    });
    box.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      var what = { "+": "in", "=": "in", "-": "out", "0": "actual", "f": "fit" }[event.key];
      if (what) { event.preventDefault(); act(what); }
    });
    box.addEventListener("wheel", function (event) {
      if (!event.ctrlKey) return; // a plain wheel scrolls the page as usual
      event.preventDefault();
      step(event.deltaY < 0 ? 1 : -1);
    }, { passive: false });
    window.addEventListener("resize", function () { if (zoom === null) apply(); });
    // Start at the actual size when it fits, else fitted while names stay readable (80%), else
    // at 80% with the box scrolling (a phone: the buttons zoom further out for the whole flight).
    var fit = box.clientWidth / natural;
    zoom = fit >= 1 ? 1 : fit >= READABLE ? null : READABLE;
    tools.hidden = false;
    apply();
  }

  function start() {
    document.querySelectorAll(".bracket-tools[data-for]").forEach(setUp);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  // A live page (static/js/live.js) puts a new drawing in place of the old: set its toolbar up too.
  document.addEventListener("crawford:live-updated", start);
})();
