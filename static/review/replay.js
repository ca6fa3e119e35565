// The admin replay of a round (templates/admin/scoring/match/replay.html), loaded from a file:
// the Content-Security-Policy runs no inline script.
// Shows one step at a time: each step's drawing is fetched once (?frame=1) and kept, and
// only the step last asked for is shown, so dragging the slider never shows a stale step.
(() => {
  const slider = document.getElementById("replay-step");
  const frame = document.getElementById("replay-frame");
  const last = Number(slider.max);
  const drawn = new Map();
  let wanted = Number(slider.value);
  const targets = {first: () => 0, previous: () => wanted - 1, next: () => wanted + 1, last: () => last};

  function point(step) {
    slider.value = step;
    for (const link of document.querySelectorAll("[data-go]")) {
      const target = Math.max(0, Math.min(last, targets[link.dataset.go]()));
      link.href = "?step=" + target;
      link.setAttribute("aria-disabled", String(target === step));
    }
    history.replaceState(null, "", "?step=" + step);
  }

  async function show(step) {
    wanted = Math.max(0, Math.min(last, step));
    point(wanted);
    if (!drawn.has(wanted)) {
      const asked = wanted;
      const response = await fetch("?frame=1&step=" + asked, {credentials: "same-origin"});
      if (!response.ok || response.redirected) {  // logged out, or gone: load the page itself
        location.assign("?step=" + asked);
        return;
      }
      drawn.set(asked, await response.text());
    }
    if (drawn.has(wanted)) frame.innerHTML = drawn.get(wanted);
  }

  document.getElementById("replay-controls").addEventListener("click", (event) => {
    const link = event.target.closest("[data-go]");
    if (!link) return;
    event.preventDefault();
    show(targets[link.dataset.go]());
  });
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider || event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = {ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last"};
    if (keys[event.key]) {
      event.preventDefault();
      show(targets[keys[event.key]]());
    }
  });
  point(wanted);
})();
