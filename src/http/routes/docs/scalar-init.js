// Starts the API reference at /docs from the bundled Scalar renderer (no CDN, no inline script).
// The page's CSP forbids inline script, so the configuration travels in data attributes.
(() => {
  var mount = document.getElementById("api-reference");
  var configuration = JSON.parse(mount.getAttribute("data-configuration"));
  // The console pre-fills the document's example Idempotency-Key; sent twice with different bodies it
  // would be refused as reused (422), so every request that still carries the example gets a fresh
  // key. A key the reader typed is sent as typed, so a deliberate retry still replays.
  var example = mount.getAttribute("data-idempotency-key-example");
  var send = window.fetch.bind(window);
  window.fetch = (input, init) => {
    var request = new Request(input, init);
    if (request.headers.get("Idempotency-Key") !== example) return send(request);
    var headers = new Headers(request.headers);
    headers.set("Idempotency-Key", crypto.randomUUID());
    return send(new Request(request, { headers: headers }));
  };
  window.Scalar.createApiReference(mount, configuration);
})();
