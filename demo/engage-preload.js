// Pre-load snippet for dist/engage.iife.js, as an external file so it runs under a strict CSP
// (script-src 'self': no inline code). Load it first, without async; calls made before the tracker
// loads are queued and replayed in order. They return undefined (no UUID yet).
//   <script src="/demo/engage-preload.js"></script>
//   <script async src="/dist/engage.iife.js" data-endpoint="/engage"></script>
// Until the script loads, `Engage` is only this queue of calls, not yet the EngageGlobal it becomes.
(function (/** @type {{ Engage?: any }} */ w) {
  /** @type {any} */
  var engage = (w.Engage = w.Engage || {});
  engage.q = engage.q || [];
  ['shown', 'clicked', 'identify', 'flush', 'observe', 'startPageView', 'consent', 'optOut', 'optIn', 'reset', 'destroy'].forEach(function (method) {
    engage[method] =
      engage[method] ||
      function () {
        engage.q.push([method, arguments]);
      };
  });
})(window);
