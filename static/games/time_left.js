// A turn's time left, said again every second from its deadline (a <time data-due> of the
// table's top bar or of a row of "Your tables", in ISO time), in the words the server first
// wrote it in (games/templatetags/tables.py, time_left). What a page's socket swaps in is
// found at the next tick, so nothing needs binding.
(function () {
  "use strict";

  const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];

  function timeLeft(due) {
    let seconds = Math.floor((Date.parse(due) - Date.now()) / 1000);
    if (!(seconds > 0)) return "Time is up";
    const parts = [];
    for (const [unit, size] of UNITS) {
      const count = Math.floor(seconds / size);
      seconds -= count * size;
      if (count || parts.length) parts.push([count, unit]);
      if (parts.length === 2) break;
    }
    const said = parts
      .filter(([count]) => count > 0)
      .map(([count, unit]) => `${count} ${unit}${count === 1 ? "" : "s"}`);
    return `${said.join(" ")} left`;
  }

  function tick() {
    for (const clock of document.querySelectorAll("time[data-due]")) {
      const text = timeLeft(clock.dataset.due);
      if (clock.textContent !== text) clock.textContent = text;
    }
  }

  tick();
  setInterval(tick, 1000);
})();
