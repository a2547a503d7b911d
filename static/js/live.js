// Live pages. An element with data-live="<url>" makes the page poll that URL (an event's live
// version: {"version": n}, with an ETag) every data-live-seconds (3 by default) with If-None-Match.
// A 304 changes nothing. When the version moves, the page fetches itself and puts the new content
// of each element marked data-live-region (matched by id) in place of the old: no reload, the
// scroll position and the rest of the page stay. A short note says when it was updated, politely
// (aria-live). Polling pauses while the page is hidden and backs off after errors. Without this
// script the pages are the same, only not live.
(function () {
  "use strict";
  var MAX_DELAY = 60;
  // For tests and curious readers: when this page was loaded, and how many updates it took.
  var state = window.crawfordLive = { loaded: Date.now(), updates: 0, version: null };

  function start() {
    var source = document.querySelector("[data-live]");
    if (!source || !window.fetch || !window.DOMParser) return;
    var url = source.getAttribute("data-live");
    var every = parseFloat(source.getAttribute("data-live-seconds")) || 3;
    var shown = source.getAttribute("data-live-version"); // the version the page was rendered at
    var latest = shown, etag = null, delay = every, timer = null, busy = false;
    state.version = shown;

    var note = document.createElement("p");
    note.className = "live-note";
    note.setAttribute("aria-live", "polite");
    source.parentNode.insertBefore(note, source);

    function later(seconds) {
      clearTimeout(timer);
      timer = document.hidden ? null : setTimeout(tick, seconds * 1000);
    }

    function failed() {
      busy = false;
      delay = Math.min(delay * 2, MAX_DELAY);
      later(delay);
    }

    function tick() {
      timer = null;
      if (busy || document.hidden) return;
      busy = true;
      var headers = { Accept: "application/json" };
      if (etag) headers["If-None-Match"] = etag;
      fetch(url, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status === 304) return null;
          if (!response.ok) throw new Error(String(response.status));
          etag = response.headers.get("ETag");
          return response.json();
        })
        .then(function (answer) {
          if (answer) latest = String(answer.version);
          if (shown === latest) return false;
          return refresh();
        })
        .then(function () {
          busy = false;
          delay = every;
          later(delay);
        })
        .catch(failed);
    }

    // Fetch the page anew and put its regions in place of ours. A region holding the field being
    // typed in is left for the next round.
    function refresh() {
      return fetch(window.location.href, { credentials: "same-origin", cache: "no-store",
                                           headers: { Accept: "text/html" } })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.text();
        })
        .then(function (html) {
          var page = new DOMParser().parseFromString(html, "text/html");
          var regions = document.querySelectorAll("[data-live-region]");
          var waiting = false, changed = false;
          for (var i = 0; i < regions.length; i++) {
            var region = regions[i], fresh = region.id && page.getElementById(region.id);
            if (!fresh || fresh.innerHTML === region.innerHTML) continue;
            var active = document.activeElement;
            if (active && region.contains(active) && /INPUT|TEXTAREA|SELECT/.test(active.tagName)) {
              waiting = true;
              continue;
            }
            // A bracket or a table scrolled sideways on a phone stays where the reader had it.
            var scrolled = region.querySelectorAll(".bracket-scroll, .table-scroll"), kept = [];
            for (var j = 0; j < scrolled.length; j++) kept.push([scrolled[j].scrollLeft, scrolled[j].scrollTop]);
            region.innerHTML = fresh.innerHTML;
            scrolled = region.querySelectorAll(".bracket-scroll, .table-scroll");
            for (j = 0; j < scrolled.length && j < kept.length; j++) {
              scrolled[j].scrollLeft = kept[j][0];
              scrolled[j].scrollTop = kept[j][1];
            }
            changed = true;
          }
          var marked = page.querySelector("[data-live]");
          if (!waiting) shown = (marked && marked.getAttribute("data-live-version")) || latest;
          if (changed) {
            // The page's own scripts set up what came in (static/bracket.js: the zoom of each drawing).
            document.dispatchEvent(new CustomEvent("crawford:live-updated"));
            state.updates += 1;
            state.version = shown;
            var time = new Date().toLocaleTimeString(document.documentElement.lang || undefined);
            note.textContent = window.interpolate ? interpolate(gettext("Updated at %(time)s."), { time: time }, true) : time;
          }
        });
    }

    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { clearTimeout(timer); timer = null; }
      else if (!timer && !busy) tick();
    });
    later(every);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
