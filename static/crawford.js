// Step through a game with the arrow keys: follow the page's previous/next links (the links
// work without this script).
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
  var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
  var link = rel && document.querySelector("nav.stepper a[rel=" + rel + "]");
  if (link) window.location.href = link.href;
});
