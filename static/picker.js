// The player picker (matches/pickers.py): each [data-player-picker] text input becomes a combobox
// (WAI-ARIA 1.2, list autocomplete): typing fetches suggestions from the players API; Down and Up
// move through them (aria-activedescendant: the focus stays in the input), Enter chooses, Escape
// closes the list (a second Escape clears the input); a click chooses too. The chosen player's id
// goes in the hidden input beside the name; typing again clears it. Without this script the page
// sends the typed name and the server finds the player (or says why it cannot). Its words come from
// the page (data-empty, data-suggestions) or the scripts' catalog (/jsi18n/, loaded by base.html).
(function () {
  if (window.crawfordPicker) return; // the script is included once per picker: run it once
  window.crawfordPicker = true;
  var counter = 0;

  function enhance(box) {
    if (box.hasAttribute("data-picker-ready")) return;
    box.setAttribute("data-picker-ready", "");
    var input = box.querySelector("input[type=text]");
    var hidden = box.querySelector("input[data-picker-id]");
    counter += 1;
    var listId = (input.id || "picker-" + counter) + "-listbox";
    var list = document.createElement("ul");
    list.id = listId;
    list.setAttribute("role", "listbox");
    list.className = "picker-listbox";
    list.hidden = true;
    var label = input.labels && input.labels[0] ? input.labels[0].textContent.trim() : input.getAttribute("aria-label");
    // Named apart from the input ("Player: suggestions"), so the label names the input alone.
    list.setAttribute("aria-label", (label ? label + ": " : "") + box.getAttribute("data-suggestions"));
    var status = document.createElement("span");
    status.className = "visually-hidden";
    status.setAttribute("aria-live", "polite");
    box.appendChild(list);
    box.appendChild(status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", listId);

    var options = [], active = -1, timer = null, asked = 0;

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }
    function highlight(index) {
      options.forEach(function (option, i) { option.element.setAttribute("aria-selected", i === index ? "true" : "false"); });
      active = index;
      if (index < 0) { input.removeAttribute("aria-activedescendant"); return; }
      input.setAttribute("aria-activedescendant", options[index].element.id);
      options[index].element.scrollIntoView({ block: "nearest" });
    }
    function choose(index) {
      var option = options[index];
      input.value = option.player.display_name;
      hidden.value = String(option.player.id);
      close();
      status.textContent = option.text;
    }
    function show(players) {
      list.textContent = "";
      options = players.map(function (player, i) {
        var element = document.createElement("li");
        element.id = listId + "-" + i;
        element.setAttribute("role", "option");
        element.setAttribute("aria-selected", "false");
        var where = [player.country, player.club && player.club.name].filter(Boolean).join(pgettext("list separator", ", "));
        var text = where ? interpolate(gettext("%(name)s (%(where)s)"), { name: player.display_name, where: where }, true)
                         : player.display_name;
        element.textContent = text;
        // mousedown, not click: the input keeps the focus, so the list is still there to be clicked.
        element.addEventListener("mousedown", function (event) { event.preventDefault(); choose(i); });
        list.appendChild(element);
        return { element: element, player: player, text: text };
      });
      if (!options.length) {
        close();
        status.textContent = box.getAttribute("data-empty");
        return;
      }
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      highlight(-1);
      status.textContent = interpolate(ngettext("%(count)s player: choose one with the arrow keys.",
                                                "%(count)s players: choose one with the arrow keys.", options.length),
                                       { count: options.length }, true);
    }
    function fetchSuggestions() {
      var text = input.value.trim();
      if (!text) { close(); return; }
      var source = box.getAttribute("data-source");
      var url = source + (source.indexOf("?") === -1 ? "?" : "&") + "page_size=8&q=" + encodeURIComponent(text);
      var mine = ++asked;
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : { results: [] }; })
        .then(function (body) { if (mine === asked) show(body.results || []); })
        .catch(function () { close(); });
    }

    input.addEventListener("input", function () {
      hidden.value = "";
      clearTimeout(timer);
      timer = setTimeout(fetchSuggestions, 150);
    });
    input.addEventListener("keydown", function (event) {
      var open = !list.hidden && options.length;
      if (event.key === "ArrowDown") {
        event.preventDefault();
        if (!open) { fetchSuggestions(); return; }
        highlight(active + 1 < options.length ? active + 1 : 0);
      } else if (event.key === "ArrowUp") {
        event.preventDefault();
        if (open) highlight(active > 0 ? active - 1 : options.length - 1);
      } else if (event.key === "Enter") {
        if (open && active >= 0) { event.preventDefault(); choose(active); }
      } else if (event.key === "Escape") {
        if (open) { event.preventDefault(); close(); }
        else if (input.value) { event.preventDefault(); input.value = ""; hidden.value = ""; }
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 100); });
  }

  function start() { document.querySelectorAll("[data-player-picker]").forEach(enhance); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
