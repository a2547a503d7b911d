// The ruling form (templates/rulings/_outcome_fields.html): show only the details the chosen
// outcome reads, and disable the others so that what was typed before a change of mind is not
// sent. Without this script every group shows, with its heading, and the service names a detail
// the outcome does not read. Also: the error summary takes the focus, so a screen reader reads it.
(function () {
  function sync(details, select) {
    var chosen = select.value;
    details.querySelectorAll("[data-outcomes]").forEach(function (element) {
      var shown = chosen !== "" && element.getAttribute("data-outcomes").split(" ").indexOf(chosen) !== -1;
      element.hidden = !shown;
      element.querySelectorAll("input, select, textarea").forEach(function (input) {
        if (element.tagName !== "FIELDSET") input.disabled = !shown;
      });
    });
    // The "(for: ...)" notes serve the page without this script; the stylesheet shows <small> as a block, so hide by style.
    details.querySelectorAll(".details-for").forEach(function (note) { note.style.display = "none"; });
  }
  function start() {
    document.querySelectorAll("[data-outcome-details]").forEach(function (details) {
      var select = document.getElementById(details.getAttribute("data-outcome-field"));
      if (!select) return;
      select.addEventListener("change", function () { sync(details, select); });
      sync(details, select);
    });
    var summary = document.querySelector("[data-error-summary]");
    if (summary) summary.focus();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
