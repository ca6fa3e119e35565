// The browser's share in every deal: 32 random bytes, as 64 hex digits, put in the form that
// takes a seat (the new table's, the join form) when it is sent. The server commits to its
// secret before any share comes, so the server cannot choose a deal; docs/engine.md says how
// every round is dealt from both. A page without JavaScript sends none: the server makes one.
(function () {
  "use strict";

  function share() {
    var bytes = new Uint8Array(32);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  document.addEventListener("submit", function (event) {
    var field = event.target.querySelector && event.target.querySelector("[data-contribution]");
    if (field && window.crypto && window.crypto.getRandomValues) {
      field.value = share();
    }
  }, true);
})();
