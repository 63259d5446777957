// The search box of the kbg site: KbgSearch (search.js) ranks the entries of search-index.js as
// `kbg explain` does; each answer links to the page and anchor that show the entry.
(function () {
  "use strict";
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var list = document.getElementById("results");
  if (!input || !status || !list) return;
  if (typeof KbgSearch === "undefined" || !window.KBG_INDEX) {
    status.textContent = "The search could not start; every entry is on the pages below.";
    return;
  }
  var games = {};  // id -> name, from the index
  Object.keys(window.KBG_INDEX.game_info || {}).forEach(function (id) { games[id] = window.KBG_INDEX.game_info[id].name; });

  function show(query) {
    list.textContent = "";
    if (!query.trim()) {
      status.textContent = "Answers appear as you type.";
      return;
    }
    var result = KbgSearch.search(window.KBG_INDEX, query, {limit: 5});
    if (result.error) {
      status.textContent = result.error;
      return;
    }
    // as kbg explain: the answer when it is sure, else the closest three
    var hits = result.confident ? result.hits : result.hits.slice(0, 3);
    status.textContent = !hits.length ? "No entry matches that question."
      : result.confident ? "The answer first, then what comes close:"
      : result.coverage === 0 ? "Nothing in the rules answers that well. Nearest topics:"
      : "Not sure which rule that is about. The closest three:";
    hits.forEach(function (hit) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = window.KBG_PAGES[hit.id] || "#";
      link.textContent = hit.title;
      var where = document.createElement("span");
      where.className = "id";
      where.textContent = " " + hit.id + ", " + (games[hit.game] || hit.game);
      item.appendChild(link);
      item.appendChild(where);
      list.appendChild(item);
    });
  }

  var timer = null;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    list.textContent = "";  // no answer to an earlier question stays on screen
    status.textContent = "Searching...";
    timer = setTimeout(function () { show(input.value); }, 120);
  });
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) input.value = asked;
  show(input.value);
})();
