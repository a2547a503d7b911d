// Step through a game with the arrow keys: follow the page's previous/next links (the links
// work without this script).
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
  var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
  var link = rel && document.querySelector("nav.stepper a[rel=" + rel + "]");
  if (link) window.location.href = link.href;
});

// The event form: show the match-length fields of the format chosen, and any field already
// filled (every field shows without this script).
(function () {
  var format = document.getElementById("id_format");
  if (!format) return;
  var fields = document.querySelectorAll("input[data-formats]");
  function show() {
    fields.forEach(function (input) {
      var read = input.getAttribute("data-formats").split(" ").indexOf(format.value) >= 0;
      input.closest("p").hidden = !read && !input.value;
    });
  }
  format.addEventListener("change", show);
  show();
})();
